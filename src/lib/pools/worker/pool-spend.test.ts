import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import { NEVER_ACCEPTED, type WorkflowRun } from '../../core/protocol/workflow-run';
import { POOL_HOLD_KEY } from '../../core/protocol/storage-keys';
import { IdbStore, MemoryStore, type KeyValueStore } from '../../core/worker/kv-store';
import type { HandOverInput, NodeDefinitions, SubmitRunError, SubmitRunInput } from '../../workflows';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import type { PoolInput } from '../protocol/pool';
import { PoolService, type PoolRunPort } from './pool-service';
import { poolContext } from './testing/pool-context';

const nodes = (() => {
	const parsed = parseObjectInfo({ KSampler: { input: { required: { seed: ['INT', {}] } }, output: ['LATENT'] } });
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.nodes as NodeDefinitions;
})();

/**
 * A worker over `kv` with a free member `home` (its queue `homeQueue` long, so the cloud helps) and
 * a paid member `cloud`, whose server answers each submit with the next of `answers` (accepted when
 * none is left). Two workers over one store are two tabs. A run the cloud took waits there; moving
 * it off cancels it there, which that server confirms unless `cancels` says `kept`.
 */
function tab(kv: KeyValueStore, answers: Array<SubmitRunError | Promise<SubmitRunError>> = [], homeQueue = 5, now = () => 1000) {
	const sent: SubmitRunInput[] = [];
	/** The runs sent here, as the worker's run records hold them. */
	const runs: WorkflowRun[] = [];
	const handOvers: HandOverInput[] = [];
	const cancels = { answer: 'confirmed' as 'confirmed' | 'kept' };
	/** Whether a run its server lost is offered to the others (the worker's hand-over 'gone'); off, it stays where it ended. */
	const reoffers = { lost: false };
	const NAMES = new Map([
		['home', 'Home GPU'],
		['cloud', 'Cloud'],
		['cloud2', 'Cloud 2']
	]);
	const { ctx, emit } = poolContext(kv, [...NAMES.keys()], (id) => NAMES.get(id) ?? 'Home GPU');
	const job = (promptId: string) => ({ promptId, position: 0, runId: null, title: 'job' });
	const port: PoolRunPort = {
		submit: async (input) => {
			sent.push(input);
			const record = {
				id: input.runId ?? `run-${sent.length}`,
				profileId: input.profileId,
				workflowId: input.workflowId,
				title: input.title,
				seeds: input.seeds,
				promptId: `p-${sent.length}`,
				prompt: input.prompt,
				status: 'submitting',
				pool: input.pool
			} as WorkflowRun;
			runs.push(record);
			const refusal = input.profileId === 'cloud' ? await answers.shift() : undefined;
			if (refusal) return fail(refusal);
			Object.assign(record, { status: 'queued', queuedAt: 1000 });
			return ok({ ...record });
		},
		nodes: async () => ok(nodes),
		// The cloud's queue lists the runs waiting there.
		queue: async (id) =>
			ok({
				running: [],
				pending:
					id === 'home'
						? [...Array(homeQueue).keys()].map((i) => job(`old-${i}`))
						: runs.filter((r) => r.profileId === 'cloud' && r.status === 'queued').map((r) => job(r.promptId!))
			}),
		wake: async () => {},
		inputFile: async () => fail(appError('not-found', 'No such file.')),
		sendInput: async (_to, file) => ok({ name: file.name }),
		openRuns: async () => runs.filter((r) => r.status === 'queued'),
		getRun: async (id) => runs.find((r) => r.id === id) ?? null,
		// As the worker's hand-over does: a cancel confirmed there ends the run cancelled, saying where it went, and tells the tabs.
		handOver: async (input) => {
			handOvers.push(input);
			const run = runs.find((r) => r.id === input.runId);
			if (run && input.how === 'gone' && reoffers.lost) {
				Object.assign(run, { movedTo: input.movedTo });
				return ok({ ...run });
			}
			if (!run || input.how !== 'cancel') return fail(appError('invalid-input', 'Not in these tests.'));
			if (cancels.answer === 'kept')
				return fail(appError('invalid-input', 'The server kept the job, or it started before the cancel: it was not moved.'));
			Object.assign(run, { status: 'cancelled', finishedAt: 2000, movedTo: input.movedTo });
			emit({ type: 'run', run: { ...run } });
			return ok({ ...run });
		}
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
	return { api, sent, runs, handOvers, cancels, reoffers, emit, send, spent };
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

const lostAnswer: SubmitRunError = { kind: 'error', error: appError('network', 'The connection dropped.'), runId: 'r' };

/** What polling makes of a run whose submit never reached its server: lost, "Never accepted", never seen waiting. */
const neverAcceptedOf = (run: WorkflowRun): WorkflowRun => ({ ...run, status: 'lost', finishedAt: 40_000, error: NEVER_ACCEPTED });

/** The holds kept on the device: one per run on a paid member that has not ended. */
const holds = async (kv: KeyValueStore) => (await kv.keys(POOL_HOLD_KEY)).map((k) => k.slice(POOL_HOLD_KEY.length));

describe('what a run on a paid member gives back when it ends', () => {
	it('a run counted after a lost answer that then reads "Never accepted" gives its price back, once: a second word, a reload and a second tab give nothing more', async () => {
		const db = `never-${Math.random()}`;
		const one = tab(new IdbStore(db, 'kv'), [lostAnswer]);
		const id = await saved(one.api, paidPool(15, 100));
		expect(await one.send(id)).toMatchObject({ refused: { kind: 'submit', profileId: 'cloud' } });
		expect(await one.send(id)).toMatchObject({ to: 'cloud' });
		expect(await one.spent(id)).toBe(30);
		const [lost, taken] = one.runs;
		// A reload keeps what each run holds.
		expect((await holds(new IdbStore(db, 'kv'))).sort()).toEqual([lost!.id, taken!.id].sort());

		// Two tabs read it at once, and it is read again: 15 cents back in all.
		const two = tab(new IdbStore(db, 'kv'));
		one.emit({ type: 'run', run: neverAcceptedOf(lost!) });
		two.emit({ type: 'run', run: neverAcceptedOf(lost!) });
		one.emit({ type: 'run', run: neverAcceptedOf(lost!) });
		await expect.poll(() => one.spent(id)).toBe(15);
		tab(new IdbStore(db, 'kv')).emit({ type: 'run', run: neverAcceptedOf(lost!) });
		await expect.poll(() => holds(new IdbStore(db, 'kv'))).toEqual([taken!.id]);
		expect(await two.spent(id)).toBe(15);
	});

	it('a run never accepted gives its price back before it is offered to the others: at the cap, another paid member may take it', async () => {
		const kv = new MemoryStore();
		const w = tab(kv, [lostAnswer]);
		w.reoffers.lost = true;
		const twoClouds = paidPool(15, 15);
		const id = await saved(w.api, {
			...twoClouds,
			members: [...twoClouds.members, { profileId: 'cloud2', weight: 1, enabled: true, paid: true, pricePerRunCents: 15 }]
		});
		expect(await w.send(id)).toMatchObject({ refused: { kind: 'submit', profileId: 'cloud' } });
		expect(await w.spent(id)).toBe(15);
		const lost = neverAcceptedOf(w.runs[0]!);
		Object.assign(w.runs[0]!, lost);
		w.emit({ type: 'run', run: lost });
		// Offered to the others (Home still has five ahead): Cloud 2, within the cap once the first price is back.
		await expect.poll(() => w.sent.map((s) => s.profileId)).toEqual(['cloud', 'cloud2']);
		expect(w.sent[1]!.pool?.movedFrom).toMatchObject({ runId: lost.id, profileId: 'cloud', why: 'never accepted' });
		await expect.poll(() => w.spent(id)).toBe(15);
		expect(await holds(kv)).toEqual([w.sent[1]!.runId]);
	});

	it('a run its server took keeps its price whatever it ends as, "Never accepted" too (it was listed there once); its hold is dropped', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 100));
		for (let i = 0; i < 3; i++) expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		const [forgotten, done, failed] = w.runs;
		w.emit({ type: 'run', run: neverAcceptedOf(forgotten!) });
		w.emit({ type: 'run', run: { ...done!, status: 'succeeded', startedAt: 1500 } });
		w.emit({ type: 'run', run: { ...failed!, status: 'failed', startedAt: 1500 } });
		await expect.poll(() => holds(kv)).toEqual([]);
		expect(await w.spent(id)).toBe(45);
	});

	it('a run refused for certain gives its price back as its submit answers, and keeps no hold', async () => {
		const kv = new MemoryStore();
		const w = tab(kv, [noCredits]);
		const id = await saved(w.api, paidPool(15, 100));
		await w.send(id);
		expect(await w.spent(id)).toBe(0);
		expect(await holds(kv)).toEqual([]);
	});

	it('a hold that reads back damaged gives nothing back: its price stays counted', async () => {
		const kv = new MemoryStore();
		const w = tab(kv, [lostAnswer]);
		const id = await saved(w.api, paidPool(15, 100));
		await w.send(id);
		const lost = w.runs[0]!;
		// Another version's record: its price as text.
		await kv.set(POOL_HOLD_KEY + lost.id, { poolId: id, profileId: 'cloud', cents: '15', since: 1000, claimed: false });
		w.emit({ type: 'run', run: neverAcceptedOf(lost) });
		await expect.poll(() => holds(kv)).toEqual([]);
		expect(await w.spent(id)).toBe(15);
	});

	it('a waiting run moved off the cloud, its cancel confirmed there, gives its price back once, so the cloud may take another', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 30));
		expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		expect(await w.send(id)).toMatchObject({ to: 'home' }); // at the cap
		const waiting = w.runs[0]!;
		expect(await w.api.moveRun({ runId: waiting.id, to: 'home' })).toMatchObject({ ok: true, value: { profileId: 'home' } });
		expect(await w.spent(id)).toBe(15);
		// The cancel's word comes again (the run's event, another tab's, a reload's): nothing more is given back.
		const cancelled = w.runs.find((r) => r.id === waiting.id)!;
		w.emit({ type: 'run', run: { ...cancelled } });
		tab(kv).emit({ type: 'run', run: { ...cancelled } });
		await expect.poll(() => holds(kv)).toEqual([w.runs[1]!.id]);
		expect(await w.spent(id)).toBe(15);
		expect(await w.send(id)).toMatchObject({ to: 'cloud' });
		expect(await w.spent(id)).toBe(30);
	});

	it('a move the cloud did not confirm the cancel of moves nothing and keeps the price counted', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 30));
		await w.send(id);
		w.cancels.answer = 'kept';
		expect(await w.api.moveRun({ runId: w.runs[0]!.id, to: 'home' })).toEqual({
			ok: false,
			error: { kind: 'not-moved', message: 'The server kept the job, or it started before the cancel: it was not moved.' }
		});
		expect(await w.spent(id)).toBe(15);
		expect(await holds(kv)).toEqual([w.runs[0]!.id]);
	});

	it('a cloud said gone that answers after all: its waiting runs are cancelled there (confirmed) and moved, each giving its price back', async () => {
		const kv = new MemoryStore();
		const w = tab(kv);
		const id = await saved(w.api, paidPool(15, 30));
		await w.send(id);
		await w.send(id);
		expect(await w.spent(id)).toBe(30);
		expect(await w.api.memberGone({ poolId: id, profileId: 'cloud' })).toEqual({
			ok: true,
			value: { answered: true, moved: 2, stopped: 0, stranded: 0, left: 0 }
		});
		expect(w.handOvers.map((h) => h.how)).toEqual(['cancel', 'cancel']);
		expect(await w.spent(id)).toBe(0);
		expect(await holds(kv)).toEqual([]);
	});
});
