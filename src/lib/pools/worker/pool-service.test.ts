import { describe, expect, it, vi } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import { MemoryStore } from '../../core/worker/kv-store';
import type { HandOverInput, NodeDefinitions, SubmitRunInput } from '../../workflows';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import type { PoolInput } from '../protocol/pool';
import { PoolService, type PoolRunPort } from './pool-service';
import { poolContext } from './testing/pool-context';

/** A server's node definitions: a loader with `checkpoints`, a LoadImage with `pictures`. */
function server(checkpoints: string[], pictures: string[] = []): NodeDefinitions {
	const parsed = parseObjectInfo({
		CheckpointLoaderSimple: { input: { required: { ckpt_name: [checkpoints] } }, output: ['MODEL'] },
		LoadImage: { input: { required: { image: [pictures, { image_upload: true }] } }, output: ['IMAGE'] },
		KSampler: { input: { required: { seed: ['INT', {}] } }, output: ['LATENT'] }
	});
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.nodes;
}

interface Member {
	nodes: NodeDefinitions;
	/** Jobs of other clients in its queue, these job ids (running first), or no answer. */
	queue: number | string[] | 'down';
	files?: Map<string, Blob>;
}

function worker(kv: MemoryStore, members: Record<string, Member>, open: WorkflowRun[] = []) {
	const submitted: SubmitRunInput[] = [];
	const sentFiles: Array<{ to: string; name: string }> = [];
	/** Every hand-over and submit, in order: a run is never sent before it is off its old server. */
	const steps: string[] = [];
	const handOvers: HandOverInput[] = [];
	let handOverAnswer: 'ok' | 'refused' = 'ok';
	const { ctx, emit } = poolContext(kv, Object.keys(members), (id) => `Server ${id}`);
	const job = (promptId: string) => ({ promptId, position: 0, runId: null, title: 'job' });
	const port: PoolRunPort = {
		submit: async (input) => {
			submitted.push(input);
			steps.push(`submit ${input.runId ?? ''} to ${input.profileId}`);
			return ok({
				id: input.runId ?? `run-${submitted.length}`,
				profileId: input.profileId,
				prompt: input.prompt,
				pool: input.pool
			} as WorkflowRun);
		},
		nodes: async (id) => ok(members[id]!.nodes),
		// A member's queue holds what it had plus every run sent to it here (none ends in these tests).
		queue: async (id) => {
			const had = members[id]!.queue;
			if (had === 'down') return fail(appError('network', 'The server did not answer.'));
			const jobs = (typeof had === 'number' ? [...Array(had).keys()].map((i) => `old-${i}`) : had).map(job);
			for (const s of submitted) if (s.profileId === id) jobs.push(job(s.promptId ?? 'p'));
			return ok({ running: jobs.slice(0, 1), pending: jobs.slice(1) });
		},
		wake: async () => {},
		inputFile: async (id, name) => {
			const bytes = members[id]!.files?.get(name);
			return bytes ? ok(bytes) : fail(appError('not-found', 'No such file.'));
		},
		sendInput: async (to, file) => {
			sentFiles.push({ to, name: file.name });
			return ok({ name: `hashed_${file.name}` });
		},
		openRuns: async () => open,
		getRun: async (id) => open.find((r) => r.id === id) ?? null,
		handOver: async (input) => {
			handOvers.push(input);
			steps.push(`hand over ${input.runId} (${input.how})${input.movedTo ? ` to ${input.movedTo.profileId}` : ''}`);
			if (handOverAnswer === 'refused') return fail(appError('invalid-input', 'The server kept the job.'));
			return ok({
				...open.find((r) => r.id === input.runId)!,
				status: input.how === 'cancel' ? 'cancelled' : 'lost',
				...(input.movedTo ? { movedTo: input.movedTo } : {})
			});
		}
	};
	const service = new PoolService(ctx, port, () => 1000);
	return {
		api: service.api(),
		service,
		submitted,
		sentFiles,
		steps,
		handOvers,
		refuseHandOvers: () => (handOverAnswer = 'refused'),
		emit
	};
}

const pool = (over: Partial<PoolInput> = {}): PoolInput => ({
	name: 'Home GPUs',
	members: ['a', 'b', 'c'].map((profileId) => ({ profileId, weight: 1, enabled: true, paid: false, pricePerRunCents: null })),
	cloudThresholdMs: 60_000,
	spendCapCents: null,
	...over
});

const run = {
	workflowId: 'w',
	title: 'Text to image',
	seeds: {},
	prompt: {
		'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd15.safetensors' } },
		'9': { class_type: 'LoadImage', inputs: { image: 'photo.png' } },
		'3': { class_type: 'KSampler', inputs: { seed: 1 } }
	}
};

describe('PoolService', () => {
	it('keeps a pool across a restart of the worker, and refuses one that names no profile', async () => {
		const kv = new MemoryStore();
		const members = { a: { nodes: server([]), queue: 0 }, b: { nodes: server([]), queue: 0 }, c: { nodes: server([]), queue: 0 } };
		const saved = await worker(kv, members).api.savePool({ pool: pool() });
		expect(saved.ok).toBe(true);
		expect(await worker(kv, members).api.listPools({})).toEqual([saved.ok && saved.value]);
		expect(await worker(kv, members).api.savePool({ pool: pool({ name: ' ', members: [] }) })).toEqual({
			ok: false,
			error: { name: 'Give the pool a name.', members: 'Add at least one profile to the pool.' }
		});
	});

	it('sends a run to the member that can run it soonest, as an ordinary run on its profile that says where it went', async () => {
		const w = worker(new MemoryStore(), {
			a: { nodes: server(['other.safetensors']), queue: 0 },
			b: { nodes: server(['sd15.safetensors', 'photo.png']), queue: 3 },
			c: { nodes: server(['SD1.5/sd15.safetensors']), queue: 'down' }
		});
		const saved = await w.api.savePool({ pool: pool() });
		if (!saved.ok) throw new Error('not saved');
		const sent = await w.api.submitPoolRun({ ...run, poolId: saved.value.id, pin: null, sourceProfileId: 'b' });
		expect(sent.ok && sent.value.profileId).toBe('b');
		expect(w.submitted[0]!.pool).toEqual({
			poolId: saved.value.id,
			poolName: 'Home GPUs',
			pinned: false,
			skipped: [
				{ profileId: 'a', reason: 'missing-model', message: 'Server a lacks the model file sd15.safetensors.' },
				{ profileId: 'c', reason: 'unreachable', message: 'Server c is not answering: the server did not answer.' }
			]
		});
		expect(w.sentFiles).toEqual([]); // picked on b, run on b: nothing to carry
	});

	it("takes the model under the member's own name and carries the input picture there", async () => {
		const w = worker(new MemoryStore(), {
			a: { nodes: server(['sd15.safetensors'], ['photo.png']), queue: 5, files: new Map([['photo.png', new Blob(['png'])]]) },
			b: { nodes: server(['SD1.5/sd15.safetensors']), queue: 0 },
			c: { nodes: server([]), queue: 0 }
		});
		const saved = await w.api.savePool({ pool: pool() });
		if (!saved.ok) throw new Error('not saved');
		const sent = await w.api.submitPoolRun({ ...run, poolId: saved.value.id, pin: null, sourceProfileId: 'a' });
		expect(sent.ok && sent.value.profileId).toBe('b');
		expect(w.sentFiles).toEqual([{ to: 'b', name: 'photo.png' }]);
		expect(w.submitted[0]!.prompt['4']!.inputs['ckpt_name']).toBe('SD1.5/sd15.safetensors');
		expect(w.submitted[0]!.prompt['9']!.inputs['image']).toBe('hashed_photo.png');
		expect(run.prompt['9'].inputs.image).toBe('photo.png'); // the form's workflow is not touched
	});

	it('sends nothing when no member can, saying why for each', async () => {
		const w = worker(new MemoryStore(), {
			a: { nodes: server([]), queue: 0 },
			b: { nodes: server([]), queue: 'down' },
			c: { nodes: server(['sd15.safetensors']), queue: 0 }
		});
		const saved = await w.api.savePool({
			pool: pool({ members: pool().members.map((m) => (m.profileId === 'c' ? { ...m, enabled: false } : m)) })
		});
		if (!saved.ok) throw new Error('not saved');
		const sent = await w.api.submitPoolRun({ ...run, poolId: saved.value.id, pin: null, sourceProfileId: null });
		expect(sent).toMatchObject({ ok: false, error: { kind: 'no-member', message: 'No member of this pool can run this workflow now.' } });
		expect(sent.ok ? [] : 'skipped' in sent.error ? sent.error.skipped.map((s) => s.reason) : []).toEqual([
			'missing-model',
			'unreachable',
			'off'
		]);
		expect(w.submitted).toEqual([]);
	});

	it('spreads runs sent at once (a sweep window) over the members: each choice sees the runs sent before it', async () => {
		const w = worker(new MemoryStore(), {
			a: { nodes: server(['sd15.safetensors']), queue: 0 },
			b: { nodes: server(['sd15.safetensors']), queue: 0 },
			c: { nodes: server(['sd15.safetensors']), queue: 0 }
		});
		const saved = await w.api.savePool({ pool: pool() });
		if (!saved.ok) throw new Error('not saved');
		await Promise.all(
			[1, 2, 3, 4, 5, 6].map(() => w.api.submitPoolRun({ ...run, poolId: saved.value.id, pin: null, sourceProfileId: null }))
		);
		expect(w.submitted.map((s) => s.profileId)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
	});

	it("learns a member's durations from the runs it sees end", async () => {
		const w = worker(new MemoryStore(), {
			a: { nodes: server(['sd15.safetensors']), queue: 0 },
			b: { nodes: server(['sd15.safetensors']), queue: 1 },
			c: { nodes: server([]), queue: 0 }
		});
		const saved = await w.api.savePool({ pool: pool() });
		if (!saved.ok) throw new Error('not saved');
		const send = () => w.api.submitPoolRun({ ...run, poolId: saved.value.id, pin: null, sourceProfileId: null });
		expect((await send()).ok && w.submitted.at(-1)!.profileId).toBe('a');
		// a turns out slow: 100 s a run, b 10 s; b with one ahead (20 s) now wins.
		for (const [id, profileId, ms] of [
			['r1', 'a', 100_000],
			['r2', 'b', 10_000]
		] as const)
			w.emit({ type: 'run', run: { id, profileId, workflowId: 'w', status: 'succeeded', startedAt: 0, finishedAt: ms } as WorkflowRun });
		await send();
		expect(w.submitted.at(-1)!.profileId).toBe('b');
	});
});

describe('runs moving between members', () => {
	const members = () => ({
		a: { nodes: server(['sd15.safetensors']), queue: 0 },
		b: { nodes: server([]), queue: 0 },
		c: { nodes: server(['sd15.safetensors'], ['photo.png']), queue: 0, files: new Map([['photo.png', new Blob(['png'])]]) }
	});
	const openRun = (id: string, profileId: string, poolId: string, over: Partial<WorkflowRun> = {}): WorkflowRun =>
		({
			...run,
			id,
			profileId,
			promptId: `p-${id}`,
			status: 'queued',
			progress: { done: [], total: 3, current: null, step: null, finishing: false },
			pool: { poolId, poolName: 'Home GPUs', pinned: false, skipped: [] },
			sweep: { id: 's', cell: 4 },
			...over
		}) as WorkflowRun;

	async function setUp(open: (poolId: string) => WorkflowRun[], over: Partial<Record<string, Member>> = {}) {
		const kv = new MemoryStore();
		const runs: WorkflowRun[] = [];
		const w = worker(kv, { ...members(), ...over } as Record<string, Member>, runs);
		const saved = await w.api.savePool({ pool: pool() });
		if (!saved.ok) throw new Error('not saved');
		runs.push(...open(saved.value.id));
		return { ...w, poolId: saved.value.id, runs, kv };
	}

	it('moves a waiting run by cancelling it there first, confirmed, then sending it here, as the same sweep cell', async () => {
		const w = await setUp((poolId) => [openRun('r1', 'c', poolId)]);
		const moved = await w.api.moveRun({ runId: 'r1', to: 'a' });
		expect(moved.ok).toBe(true);
		const to = w.handOvers[0]!.movedTo!;
		expect(w.steps).toEqual([`hand over r1 (cancel) to a`, `submit ${to.runId} to a`]);
		expect(w.submitted[0]).toMatchObject({ runId: to.runId, promptId: to.promptId, sweep: { id: 's', cell: 4 } });
		expect(w.submitted[0]!.pool?.movedFrom).toEqual({ runId: 'r1', profileId: 'c', why: 'moved by you' });
	});

	it('sends nothing when the old server did not confirm the cancel', async () => {
		const w = await setUp((poolId) => [openRun('r1', 'c', poolId)]);
		w.refuseHandOvers();
		expect(await w.api.moveRun({ runId: 'r1', to: 'a' })).toEqual({
			ok: false,
			error: { kind: 'not-moved', message: 'The server kept the job.' }
		});
		expect(w.submitted).toEqual([]);
	});

	it('moves only a run that waits, and only to a member that can run it', async () => {
		const w = await setUp((poolId) => [openRun('r1', 'c', poolId, { status: 'running', startedAt: 5 }), openRun('r2', 'c', poolId)]);
		expect(await w.api.moveRun({ runId: 'r1', to: 'a' })).toMatchObject({ ok: false });
		const toB = await w.api.moveRun({ runId: 'r2', to: 'b' });
		expect(toB).toMatchObject({ ok: false, error: { message: expect.stringContaining('Server b lacks the model file sd15.safetensors') } });
		expect(w.handOvers).toEqual([]);
		expect(w.submitted).toEqual([]);
	});

	it('a member said gone is switched off; its waiting runs go to the others, what it ran ends lost and is never sent again', async () => {
		const w = await setUp(
			(poolId) => [
				openRun('running', 'c', poolId, { status: 'running', startedAt: 5 }),
				openRun('waiting', 'c', poolId),
				openRun('elsewhere', 'a', poolId)
			],
			{ c: { ...members().c, queue: 'down' } }
		);
		const report = await w.api.memberGone({ poolId: w.poolId, profileId: 'c' });
		expect(report).toEqual({ ok: true, value: { answered: false, moved: 1, stopped: 1, stranded: 0, left: 0 } });
		expect(w.handOvers.map((h) => [h.runId, h.how, h.movedTo?.profileId ?? null])).toEqual([
			['running', 'gone', null],
			['waiting', 'gone', 'a']
		]);
		expect(w.submitted.map((s) => s.profileId)).toEqual(['a']);
		expect((await w.api.listPools({}))[0]!.members.find((m) => m.profileId === 'c')?.enabled).toBe(false);
		expect(await w.service.capacity(w.poolId)).toBe(4);
	});

	it('a member said gone that answers after all: its queue now is the word, so a run that started since the last look is not moved', async () => {
		// The last look saw both waiting; since then `started` began there (its record does not know yet).
		const w = await setUp((poolId) => [openRun('started', 'c', poolId), openRun('waiting', 'c', poolId), openRun('ended', 'c', poolId)], {
			c: { ...members().c, queue: ['p-started', 'p-waiting'] }
		});
		const report = await w.api.memberGone({ poolId: w.poolId, profileId: 'c' });
		expect(report).toEqual({ ok: true, value: { answered: true, moved: 1, stopped: 0, stranded: 0, left: 2 } });
		// Moved as the person moves one: cancelled there, confirmed, then sent; the others are left to run or be read there.
		expect(w.handOvers.map((h) => [h.runId, h.how, h.movedTo?.profileId ?? null])).toEqual([['waiting', 'cancel', 'a']]);
		expect(w.submitted.map((s) => s.profileId)).toEqual(['a']);
		expect((await w.api.listPools({}))[0]!.members.find((m) => m.profileId === 'c')?.enabled).toBe(false);
	});

	it('a member switched off answers again: its lane says since when, and switching it on sends it runs again', async () => {
		const c: Member = { ...members().c, queue: 'down' };
		const w = await setUp(() => [], { c });
		const laneOfC = async () => {
			const view = await w.api.poolQueue({ poolId: w.poolId });
			if (!view.ok) throw new Error('no view');
			return view.value.lanes.find((l) => l.profileId === 'c')!;
		};
		expect(await laneOfC()).toMatchObject({ answering: false, answersAgainSince: null, lastReadAt: null });
		await w.api.memberGone({ poolId: w.poolId, profileId: 'c' });
		c.queue = 0;
		expect(await laneOfC()).toMatchObject({ answering: true, enabled: false, answersAgainSince: 1000, lastReadAt: 1000 });
		expect(await w.api.switchMemberOn({ poolId: w.poolId, profileId: 'c' })).toMatchObject({ ok: true });
		expect(await laneOfC()).toMatchObject({ enabled: true });
		expect(await w.service.capacity(w.poolId)).toBe(6);
	});

	it('a reload keeps what the member was seen doing: that it answers again, and what it was running when it stopped', async () => {
		const c: Member = { ...members().c, queue: ['p-started', 'p-waiting'] };
		const w = await setUp((poolId) => [openRun('started', 'c', poolId), openRun('waiting', 'c', poolId)], { c });
		const laneOf = async (api: typeof w.api, id: string) => {
			const view = await api.poolQueue({ poolId: w.poolId });
			if (!view.ok) throw new Error('no view');
			return view.value.lanes.find((l) => l.profileId === id)!;
		};
		await laneOf(w.api, 'c'); // seen running `started`
		c.queue = 'down';
		await laneOf(w.api, 'c');
		// The page reloads: a new worker over the same store. C is said gone while it still does not answer.
		const reloaded = worker(w.kv, { ...members(), c }, w.runs);
		expect(await laneOf(reloaded.api, 'c')).toMatchObject({ answering: false, lastReadAt: 1000 });
		expect(await reloaded.api.memberGone({ poolId: w.poolId, profileId: 'c' })).toMatchObject({
			ok: true,
			value: { moved: 1, stopped: 1 }
		});
		expect(reloaded.handOvers.map((h) => [h.runId, h.movedTo?.profileId ?? null])).toEqual([
			['started', null],
			['waiting', 'a']
		]);
		// It comes back, and the page reloads again: its lane still says it answers again, and that it is off.
		c.queue = 0;
		await laneOf(reloaded.api, 'c');
		const again = worker(w.kv, { ...members(), c }, w.runs);
		expect(await laneOf(again.api, 'c')).toMatchObject({ answering: true, enabled: false, answersAgainSince: 1000 });
	});

	it('a waiting run its server says it forgot goes to the others by itself; a run that had started does not', async () => {
		const w = await setUp((poolId) => [
			openRun('forgotten', 'c', poolId, { status: 'lost', error: { kind: 'lost', title: 'Gone from the queue', message: '…' } }),
			openRun('restarted', 'c', poolId, {
				status: 'lost',
				startedAt: 5,
				error: { kind: 'lost', title: 'The server restarted', message: '…' }
			})
		]);
		for (const id of ['forgotten', 'restarted', 'forgotten']) w.emit({ type: 'run', run: w.runs.find((r) => r.id === id)! });
		await vi.waitFor(() => expect(w.submitted).toHaveLength(1));
		expect(w.handOvers.map((h) => [h.runId, h.how, h.movedTo?.profileId])).toEqual([['forgotten', 'gone', 'a']]);
		expect(w.submitted[0]!.pool?.movedFrom).toMatchObject({ runId: 'forgotten', profileId: 'c', why: 'gone from the queue' });
	});
});
