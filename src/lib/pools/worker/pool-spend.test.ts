import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import { IdbStore, MemoryStore, type KeyValueStore } from '../../core/worker/kv-store';
import type { NodeDefinitions, SubmitRunError, SubmitRunInput } from '../../workflows';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import type { PoolInput } from '../protocol/pool';
import { PoolService, type PoolRunPort } from './pool-service';

const nodes = (() => {
	const parsed = parseObjectInfo({ KSampler: { input: { required: { seed: ['INT', {}] } }, output: ['LATENT'] } });
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.nodes as NodeDefinitions;
})();

/**
 * A worker over `kv` with a free member `home` (its queue `homeQueue` long, so the cloud helps) and
 * a paid member `cloud`, whose server answers each submit with the next of `answers` (accepted when
 * none is left). Two workers over one store are two tabs.
 */
function tab(kv: KeyValueStore, answers: Array<SubmitRunError | Promise<SubmitRunError>> = [], homeQueue = 5, now = () => 1000) {
	const sent: SubmitRunInput[] = [];
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const ctx = {
		kv,
		profiles: {
			list: async () => [
				{ id: 'home', name: 'Home GPU' },
				{ id: 'cloud', name: 'Cloud' }
			],
			get: async (id: string) => ({ id, name: id === 'cloud' ? 'Cloud' : 'Home GPU' })
		},
		onTabTopic: () => {},
		notifyTabs: () => {},
		isLeader: () => true,
		emit: (e: WorkerEvent) => listeners.forEach((l) => l(e)),
		onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l)
	} as unknown as WorkerContext;
	const job = (promptId: string) => ({ promptId, position: 0, runId: null, title: 'job' });
	const port: PoolRunPort = {
		submit: async (input) => {
			sent.push(input);
			const refusal = input.profileId === 'cloud' ? await answers.shift() : undefined;
			if (refusal) return fail(refusal);
			return ok({
				id: input.runId ?? `run-${sent.length}`,
				profileId: input.profileId,
				prompt: input.prompt,
				pool: input.pool
			} as WorkflowRun);
		},
		nodes: async () => ok(nodes),
		queue: async (id) => ok({ running: [], pending: id === 'home' ? [...Array(homeQueue).keys()].map((i) => job(`old-${i}`)) : [] }),
		wake: async () => {},
		inputFile: async () => fail(appError('not-found', 'No such file.')),
		sendInput: async (_to, file) => ok({ name: file.name }),
		openRuns: async () => [],
		getRun: async () => null,
		handOver: async () => fail(appError('invalid-input', 'Not in these tests.'))
	};
	const service = new PoolService(ctx, port, now);
	const api = service.api();
	const send = async (poolId: string) => {
		const result = await api.submitPoolRun({
			poolId,
			pin: null,
			sourceProfileId: null,
			workflowId: 'w',
			title: 'Sampler',
			seeds: {},
			prompt
		});
		return result.ok ? { to: result.value.profileId, skipped: result.value.pool?.skipped ?? [] } : { refused: result.error };
	};
	const spent = async (poolId: string) => (await api.listPools({})).find((p) => p.id === poolId)!.spentCents;
	return { api, sent, send, spent };
}

const prompt = { '3': { class_type: 'KSampler', inputs: { seed: 1 } } };

/** Home and a paid cloud at `price` cents a run, under a cap of `cap` cents; the cloud helps past 60 s of waiting. */
const paidPool = (price: number | null, cap: number | null): PoolInput => ({
	name: 'Home and cloud',
	members: [
		{ profileId: 'home', weight: 1, enabled: true, paid: false, pricePerRunCents: null },
		{ profileId: 'cloud', weight: 1, enabled: true, paid: true, pricePerRunCents: price }
	],
	cloudThresholdMs: 60_000,
	spendCapCents: cap
});

async function saved(api: ReturnType<typeof tab>['api'], input: PoolInput): Promise<string> {
	const made = await api.savePool({ pool: input });
	if (!made.ok) throw new Error(JSON.stringify(made.error));
	return made.value.id;
}

const noCredits: SubmitRunError = {
	kind: 'error',
	error: appError('no-credits', 'Your account has no credits left.', { status: 402 }),
	runId: 'r'
};

describe('what a pool commits to a paid member', () => {
	it('counts the price of each run the cloud accepted, and past the cap sends the next one home, saying why; kept over a restart', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 30));
		expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		expect(await w.spent(id)).toBe(15);
		expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		const third = await w.send(id);
		expect(third).toMatchObject({ to: 'home' });
		expect(third.skipped).toContainEqual({
			profileId: 'cloud',
			reason: 'spend-cap',
			message:
				'Not sent to Cloud: spend cap: 30 of 30 cents committed, a run here is 15. Raise the cap, or reset what is counted, on the Pools page.'
		});
		// A worker started afresh (a reload) reads the same count.
		expect(await tab(kv).spent(id)).toBe(30);
		expect(w.sent.map((s) => s.profileId)).toEqual(['cloud', 'cloud', 'home']);
	});

	it.each([
		['a 402 (no credits)', noCredits, 0],
		['a queue full (429)', { kind: 'error', error: appError('rate-limited', 'The queue is full.', { status: 429 }), runId: 'r' }, 0],
		['a validation refusal', { kind: 'rejected', message: 'Bad seed.', problems: {}, status: 400, runId: 'r' }, 0],
		['nothing sent (its profile could not be read)', { kind: 'error', error: appError('network', 'No answer.'), runId: null }, 0],
		// The request may have reached the server: the run is kept and followed, so its price stays counted.
		['a network error after sending', { kind: 'error', error: appError('network', 'The connection dropped.'), runId: 'r' }, 15],
		['a timeout after sending', { kind: 'error', error: appError('timeout', 'No answer in time.'), runId: 'r' }, 15]
	] satisfies Array<[string, SubmitRunError, number]>)('after %s, %s cents stay committed', async (_, refusal, committed) => {
		const w = tab(new MemoryStore(), [refusal]);
		const id = await saved(w.api, paidPool(15, 100));
		expect(await w.send(id)).toMatchObject({ refused: { kind: 'submit', profileId: 'cloud' } });
		expect(await w.spent(id)).toBe(committed);
	});

	it('counts nothing for a free member, and nothing under no cap is ever refused for money', async () => {
		const w = tab(new MemoryStore(), [], 0);
		const id = await saved(w.api, paidPool(15, null));
		expect(await w.send(id)).toMatchObject({ to: 'home' });
		expect(await w.spent(id)).toBe(0);
		const busy = tab(new MemoryStore());
		const open = await saved(busy.api, paidPool(15, null));
		for (let i = 0; i < 3; i++) expect(await busy.send(open)).toMatchObject({ to: 'cloud' });
		expect(await busy.spent(open)).toBe(45);
	});

	it('two tabs sending at once never pass the cap together: the count is read and written in one transaction', async () => {
		const db = `spend-${Math.random()}`;
		const [one, two] = [tab(new IdbStore(db, 'kv')), tab(new IdbStore(db, 'kv'))];
		const id = await saved(one.api, paidPool(15, 20));
		// Both choose the cloud (each read 0 committed); only one of them may count its price.
		const answers = await Promise.all([one.send(id), two.send(id)]);
		const toCloud = answers.filter((a) => 'to' in a && a.to === 'cloud');
		const refused = answers.filter((a) => 'refused' in a);
		expect(toCloud).toHaveLength(1);
		expect(refused).toEqual([
			{
				refused: {
					kind: 'submit',
					profileId: 'cloud',
					error: {
						kind: 'error',
						runId: null,
						error: expect.objectContaining({ message: expect.stringContaining('Not sent to Cloud: spend cap: 15 of 20') })
					}
				}
			}
		]);
		expect(await one.spent(id)).toBe(15);
		expect(one.sent.length + two.sent.length).toBe(1);
	});

	it('an edit saved from an older copy of the pool keeps what was counted meanwhile', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 100));
		const before = (await w.api.listPools({}))[0]!;
		await w.send(id);
		const edited = await w.api.savePool({ pool: { ...paidPool(20, 100), id, name: 'Renamed' } });
		expect(edited.ok).toBe(true);
		expect(await w.api.listPools({})).toEqual([
			expect.objectContaining({ name: 'Renamed', spentCents: 15, spentSince: before.spentSince })
		]);
	});

	it('starts counting again from 0 when the person resets it; a refusal counted before the reset gives nothing back after it', async () => {
		const kv = new MemoryStore();
		let clock = 1000;
		let refuseLate: (e: SubmitRunError) => void = () => {};
		const late = new Promise<SubmitRunError>((resolve) => (refuseLate = resolve));
		const one = tab(kv, [late], 5, () => clock);
		const two = tab(kv, [], 5, () => clock);
		const id = await saved(one.api, paidPool(15, 30));
		// Tab one's run is on its way to the cloud (15 counted) when the person resets the count in tab two.
		const first = one.send(id);
		await expect.poll(() => one.sent.length).toBe(1);
		expect(await two.spent(id)).toBe(15);
		clock += 1;
		expect(await two.api.resetSpend({ poolId: id })).toMatchObject({ ok: true, value: { spentCents: 0, spentSince: 1001 } });
		expect(await two.send(id)).toMatchObject({ to: 'cloud' });
		// The first run is refused after the reset: what it counted was already forgotten, the second run's stays.
		refuseLate(noCredits);
		expect(await first).toMatchObject({ refused: { kind: 'submit' } });
		expect(await two.spent(id)).toBe(15);
		expect(await two.api.resetSpend({ poolId: 'gone' })).toMatchObject({ ok: false, error: { kind: 'not-found' } });
	});
});
