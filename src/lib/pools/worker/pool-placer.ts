/**
 * Where a pool's run goes: reads each member's state (its definitions, its queue now, its recent
 * durations), asks the pure choice (`rules/choose-member.ts`) and takes the run's input files to
 * the chosen member (by hash, else uploaded). Sending is the caller's: a new run is sent at once,
 * a moved one only once its old server confirmed it gone.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { ApiPrompt, WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import type { MemberChoice, Pool, PoolMember, PoolRunError } from '../protocol/pool';
import { chooseMember, type MemberState } from '../rules/choose-member';
import { inputFilesOf, withInputValues } from '../rules/input-files';
import { memberDefinitions, workNeeds, type MemberDefinitions } from '../rules/work-needs';
import type { MemberDurations } from './durations';
import type { PoolRunPort } from './run-port';

/** A run's duration where nothing is on record yet: only compares members, so any one value serves. */
export const UNKNOWN_DURATION_MS = 30_000;

export interface PlaceInput {
	prompt: ApiPrompt;
	workflowId: string | null;
	/** The member to send it to whatever the others' waits; null lets the pool choose. */
	pin: string | null;
	/** Members not to choose, and why (the one a moved run leaves). */
	exclude: ReadonlyArray<{ profileId: string; message: string }>;
	/** Where its input files are now, to copy them from; null when it has none to copy. */
	sourceProfileId: string | null;
}

export interface Placement {
	choice: Extract<MemberChoice, { ok: true }>;
	/** The workflow as the chosen member is sent it: its model names, its input file names. */
	prompt: ApiPrompt;
}

export class PoolPlacer {
	/** Definitions by member, rebuilt when the member's node definitions object changes. */
	private readonly definitions = new Map<string, { from: object; compact: MemberDefinitions }>();

	constructor(
		private readonly ctx: WorkerContext,
		private readonly runs: PoolRunPort,
		private readonly durations: MemberDurations
	) {}

	async place(pool: Pool, input: PlaceInput): Promise<Result<Placement, Extract<PoolRunError, { kind: 'no-member' | 'inputs' }>>> {
		const members = await Promise.all(pool.members.map((member) => this.memberState(member, input)));
		const choice = chooseMember({
			work: workNeeds(input.prompt),
			members,
			cloudThresholdMs: pool.cloudThresholdMs,
			spendCapCents: pool.spendCapCents,
			spentCents: pool.spentCents,
			pin: input.pin,
			unknownDurationMs: UNKNOWN_DURATION_MS
		});
		const said = (skip: MemberChoice['skipped'][number]) => {
			const excluded = input.exclude.find((e) => e.profileId === skip.profileId);
			return excluded ? { ...skip, message: excluded.message } : skip;
		};
		if (!choice.ok) return fail({ kind: 'no-member', message: choice.message, skipped: choice.skipped.map(said) });
		choice.skipped = choice.skipped.map(said);
		const target = choice.profileId;
		let prompt = withInputValues(
			input.prompt,
			choice.renames.map((r) => ({ nodeId: r.nodeId, input: r.input, to: r.to }))
		);
		if (input.sourceProfileId !== null && input.sourceProfileId !== target) {
			const carried = await this.carryInputs(prompt, input.sourceProfileId, target);
			if (!carried.ok) return fail({ kind: 'inputs', message: carried.error.message, profileId: target });
			prompt = carried.value;
		}
		return ok({ choice, prompt });
	}

	private async memberState(member: PoolMember, input: PlaceInput): Promise<MemberState> {
		const profile = await this.ctx.profiles.get(member.profileId);
		const name = profile?.name ?? 'A deleted profile';
		const base = {
			name,
			concurrency: 1,
			recentDurationsMs: await this.durations.recent(member.profileId, input.workflowId)
		};
		const excluded = input.exclude.find((e) => e.profileId === member.profileId);
		// Left out as a member switched off is, with its own reason.
		if (excluded) return { ...base, member: { ...member, enabled: false }, name, definitions: null, queueLength: 0 };
		if (!profile) return { ...base, member, definitions: null, unreachable: 'its profile was deleted', queueLength: 0 };
		if (!member.enabled) return { ...base, member, definitions: null, queueLength: 0 };
		const [queue, nodes] = await Promise.all([this.runs.queue(member.profileId), this.runs.nodes(member.profileId)]);
		if (!queue.ok) return { ...base, member, definitions: null, unreachable: lowerFirst(queue.error.message), queueLength: 0 };
		const queueLength = queue.value.running.length + queue.value.pending.length;
		if (!nodes.ok) return { ...base, member, definitions: null, unreachable: lowerFirst(nodes.error.message), queueLength };
		return { ...base, member, definitions: this.compact(member.profileId, nodes.value), queueLength };
	}

	private compact(profileId: string, nodes: object): MemberDefinitions {
		const known = this.definitions.get(profileId);
		if (known?.from === nodes) return known.compact;
		const compact = memberDefinitions(nodes as Parameters<typeof memberDefinitions>[0]);
		this.definitions.set(profileId, { from: nodes, compact });
		return compact;
	}

	/** Copies the run's input files from the profile where they are to the member, under the member's names. */
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
}

const lowerFirst = (text: string) => (text ? text[0]!.toLowerCase() + text.slice(1) : text).replace(/\.$/, '');
