/**
 * Pools in the worker: stores them, and sends a pool's run to one member. It reads each member's
 * state (its definitions, its queue now, its recent durations), asks the pure choice
 * (`rules/choose-member.ts`), takes the run's input files to that member (by hash, else uploaded)
 * and submits an ordinary run on the member's profile. The member's queue schedules it from there.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { TIMELINE_KEY } from '../../core/protocol/storage-keys';
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import { readTimelineRecord } from '../../core/rules/timeline-record';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import type { Pool, PoolApi, PoolFieldErrors, PoolInput, PoolRunError, SubmitPoolRunInput } from '../protocol/pool';
import { chooseMember, type MemberState } from '../rules/choose-member';
import { inputFilesOf, withInputValues } from '../rules/input-files';
import { poolFromInput } from '../rules/pool-input';
import { asSubmitError } from '../rules/submit-error';
import type { SubmitRunError, SubmitRunInput } from '../../workflows';
import { memberDefinitions, workNeeds, type MemberDefinitions } from '../rules/work-needs';
import { PoolRepo } from './pool-repo';
import type { PoolRunPort } from './run-port';

export type { PoolRunPort } from './run-port';

/** A run's duration where nothing is on record yet: only compares members, so any one value serves. */
const UNKNOWN_DURATION_MS = 30_000;
const KEPT_DURATIONS = 10;

export class PoolService {
	private readonly repo: PoolRepo;
	/** Recent durations by member, and by member and workflow: newest first, read once from the timeline, then kept from run events. */
	private durations: Map<string, number[]> | null = null;
	/** Definitions by member, rebuilt when the member's node definitions object changes. */
	private readonly definitions = new Map<string, { from: object; compact: MemberDefinitions }>();

	constructor(
		private readonly ctx: WorkerContext,
		private readonly runs: PoolRunPort,
		private readonly now: () => number = Date.now
	) {
		this.repo = new PoolRepo(ctx.kv);
		ctx.onEmit((event) => {
			if (event.type === 'run' && event.run.status === 'succeeded') this.noteDuration(event.run);
		});
		ctx.onTabTopic('pools-changed', () => void this.publish());
	}

	api(): PoolApi {
		return {
			listPools: () => this.repo.list(),
			savePool: ({ pool }) => this.save(pool),
			deletePool: ({ id }) => this.remove(id),
			submitPoolRun: (input) => this.submit(input)
		};
	}

	/**
	 * A run the form made for `input.profileId` (a sweep's cell), sent through the pool instead and
	 * answered as a profile's run is: the pool's refusals read as a refused submit.
	 */
	async submitAsProfileRun(input: SubmitRunInput, poolId: string): Promise<Result<WorkflowRun, SubmitRunError>> {
		const { profileId, pool: _ignored, ...run } = input;
		void _ignored;
		const sent = await this.submit({ ...run, poolId, pin: null, sourceProfileId: profileId });
		return sent.ok ? sent : fail(asSubmitError(sent.error));
	}

	/** Takes a deleted profile out of every pool it was in. */
	async removeProfile(profileId: string): Promise<void> {
		for (const pool of await this.repo.list())
			if (pool.members.some((m) => m.profileId === profileId))
				await this.repo.put({ ...pool, members: pool.members.filter((m) => m.profileId !== profileId), updatedAt: this.now() });
		await this.changed();
	}

	private async save(input: PoolInput): Promise<Result<Pool, PoolFieldErrors>> {
		const profileIds = new Set((await this.ctx.profiles.list()).map((p) => p.id));
		const previous = input.id ? await this.repo.get(input.id) : undefined;
		const made = poolFromInput(input, profileIds, previous, this.now(), () => crypto.randomUUID());
		if (!made.ok) return made;
		await this.repo.put(made.value);
		await this.changed();
		return made;
	}

	private async remove(id: string): Promise<void> {
		await this.repo.remove(id);
		await this.changed();
	}

	private async changed(): Promise<void> {
		this.ctx.notifyTabs('pools-changed');
		await this.publish();
	}

	private async publish(): Promise<void> {
		this.ctx.emit({ type: 'pools', pools: await this.repo.list() });
	}

	/**
	 * One choice and submit at a time per pool: a choice reads the members' queues, so runs sent at
	 * once (a sweep's window) would all see the same empty queue and all go to one member.
	 */
	private submit(input: SubmitPoolRunInput): Promise<Result<WorkflowRun, PoolRunError>> {
		const previous = this.chains.get(input.poolId) ?? Promise.resolve();
		const next = previous.then(() => this.submitNow(input));
		this.chains.set(
			input.poolId,
			next.catch(() => undefined)
		);
		return next;
	}

	private readonly chains = new Map<string, Promise<unknown>>();

	private async submitNow(input: SubmitPoolRunInput): Promise<Result<WorkflowRun, PoolRunError>> {
		const pool = await this.repo.get(input.poolId);
		if (!pool) return fail({ kind: 'no-pool', message: 'This pool no longer exists: choose another place to run.' });
		const { poolId, pin, sourceProfileId, ...run } = input;
		void poolId;
		const members = await Promise.all(pool.members.map((member) => this.memberState(member, input)));
		const choice = chooseMember({
			work: workNeeds(run.prompt),
			members,
			cloudThresholdMs: pool.cloudThresholdMs,
			spendCapCents: pool.spendCapCents,
			spentCents: pool.spentCents,
			pin,
			unknownDurationMs: UNKNOWN_DURATION_MS
		});
		if (!choice.ok) return fail({ kind: 'no-member', message: choice.message, skipped: choice.skipped });
		const target = choice.profileId;
		let prompt = withInputValues(
			run.prompt,
			choice.renames.map((r) => ({ nodeId: r.nodeId, input: r.input, to: r.to }))
		);
		if (sourceProfileId !== null && sourceProfileId !== target) {
			const carried = await this.carryInputs(prompt, sourceProfileId, target);
			if (!carried.ok) return fail({ kind: 'inputs', message: carried.error.message, profileId: target });
			prompt = carried.value;
		}
		const sent = await this.runs.submit({
			...run,
			prompt,
			profileId: target,
			pool: { poolId: pool.id, poolName: pool.name, pinned: pin !== null, skipped: choice.skipped }
		});
		return sent.ok ? sent : fail({ kind: 'submit', error: sent.error, profileId: target });
	}

	private async memberState(member: Pool['members'][number], input: SubmitPoolRunInput): Promise<MemberState> {
		const profile = await this.ctx.profiles.get(member.profileId);
		const name = profile?.name ?? 'A deleted profile';
		const base = {
			member,
			name,
			concurrency: 1,
			recentDurationsMs: await this.recentDurations(member.profileId, input.workflowId),
			expectedCostCents: null
		};
		if (!profile) return { ...base, definitions: null, unreachable: 'its profile was deleted', queueLength: 0 };
		if (!member.enabled) return { ...base, definitions: null, queueLength: 0 };
		const [queue, nodes] = await Promise.all([this.runs.queueLength(member.profileId), this.runs.nodes(member.profileId)]);
		if (!queue.ok) return { ...base, definitions: null, unreachable: lowerFirst(queue.error.message), queueLength: 0 };
		if (!nodes.ok) return { ...base, definitions: null, unreachable: lowerFirst(nodes.error.message), queueLength: queue.value };
		return { ...base, definitions: this.compact(member.profileId, nodes.value), queueLength: queue.value };
	}

	private compact(profileId: string, nodes: object): MemberDefinitions {
		const known = this.definitions.get(profileId);
		if (known?.from === nodes) return known.compact;
		const compact = memberDefinitions(nodes as Parameters<typeof memberDefinitions>[0]);
		this.definitions.set(profileId, { from: nodes, compact });
		return compact;
	}

	/** Copies the run's input files from the profile whose form picked them to the member, under the member's names. */
	private async carryInputs(prompt: WorkflowRun['prompt'], from: string, to: string): Promise<Result<WorkflowRun['prompt']>> {
		const nodes = await this.runs.nodes(from);
		if (!nodes.ok) return nodes;
		const changes: Array<{ nodeId: string; input: string; to: string }> = [];
		const sentAs = new Map<string, string>();
		for (const use of inputFilesOf(prompt, nodes.value)) {
			let name = sentAs.get(use.name);
			if (name === undefined) {
				const bytes = await this.runs.inputFile(from, use.name);
				if (!bytes.ok)
					return fail(
						appError(bytes.error.kind, `The input file ${use.name} could not be read from where it was picked: ${bytes.error.message}`)
					);
				const file = new File([bytes.value], use.name, { type: bytes.value.type, lastModified: 0 });
				const sent = await this.runs.sendInput(to, file);
				if (!sent.ok)
					return fail(appError(sent.error.kind, `The input file ${use.name} could not reach the chosen server: ${sent.error.message}`));
				name = sent.value.name;
				sentAs.set(use.name, name);
			}
			if (name !== use.name) changes.push({ nodeId: use.nodeId, input: use.input, to: name });
		}
		return ok(withInputValues(prompt, changes));
	}

	private async recentDurations(profileId: string, workflowId: string | null): Promise<number[]> {
		const durations = await this.loadDurations();
		const similar = workflowId ? durations.get(durationKey(profileId, workflowId)) : undefined;
		return similar ?? durations.get(durationKey(profileId, null)) ?? [];
	}

	private async loadDurations(): Promise<Map<string, number[]>> {
		if (this.durations) return this.durations;
		const durations = new Map<string, number[]>();
		const entries = (await this.ctx.kv.entries<unknown>(TIMELINE_KEY)).flatMap(([, value]) => readTimelineRecord(value)?.entry ?? []);
		entries.sort((a, b) => b.createdAt - a.createdAt); // newest first
		for (const e of entries)
			if (e.kind === 'workflow' && e.status === 'succeeded' && e.durationMs !== null) {
				push(durations, durationKey(e.profileId, null), e.durationMs);
				if (e.subject) push(durations, durationKey(e.profileId, e.subject), e.durationMs);
			}
		this.durations ??= durations;
		return this.durations;
	}

	private noteDuration(run: WorkflowRun): void {
		if (!this.durations || run.startedAt === undefined || run.finishedAt === undefined || run.elsewhere) return;
		const ms = run.finishedAt - run.startedAt;
		if (!(ms > 0)) return;
		// A run's last events may come more than once: one duration per run.
		const key = durationKey(run.profileId, null);
		if (this.noted.has(run.id)) return;
		this.noted.add(run.id);
		unshift(this.durations, key, ms);
		if (run.workflowId) unshift(this.durations, durationKey(run.profileId, run.workflowId), ms);
	}

	private readonly noted = new Set<string>();
}

const durationKey = (profileId: string, workflowId: string | null) => `${profileId}\u0000${workflowId ?? ''}`;

function push(map: Map<string, number[]>, key: string, ms: number): void {
	const list = map.get(key) ?? [];
	if (list.length < KEPT_DURATIONS) list.push(ms);
	map.set(key, list);
}

function unshift(map: Map<string, number[]>, key: string, ms: number): void {
	const list = map.get(key) ?? [];
	list.unshift(ms);
	if (list.length > KEPT_DURATIONS) list.length = KEPT_DURATIONS;
	map.set(key, list);
}

const lowerFirst = (text: string) => (text ? text[0]!.toLowerCase() + text.slice(1) : text).replace(/\.$/, '');
