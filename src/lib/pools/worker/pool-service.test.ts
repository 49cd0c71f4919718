import { describe, expect, it } from 'vitest';
import { appError, fail, ok } from '../../core/protocol/errors';
import type { WorkerEvent } from '../../core/protocol/worker-api';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { WorkerContext } from '../../core/worker/context';
import { MemoryStore } from '../../core/worker/kv-store';
import type { NodeDefinitions, SubmitRunInput } from '../../workflows';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import type { PoolInput } from '../protocol/pool';
import { PoolService, type PoolRunPort } from './pool-service';

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
	queue: number | 'down';
	files?: Map<string, Blob>;
}

function worker(kv: MemoryStore, members: Record<string, Member>) {
	const submitted: SubmitRunInput[] = [];
	const sentFiles: Array<{ to: string; name: string }> = [];
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const ctx = {
		kv,
		profiles: {
			list: async () => Object.keys(members).map((id) => ({ id, name: `Server ${id}` })),
			get: async (id: string) => (id in members ? { id, name: `Server ${id}` } : undefined)
		},
		onTabTopic: () => {},
		notifyTabs: () => {},
		emit: (e: WorkerEvent) => listeners.forEach((l) => l(e)),
		onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l)
	} as unknown as WorkerContext;
	const port: PoolRunPort = {
		submit: async (input) => {
			submitted.push(input);
			return ok({ id: `run-${submitted.length}`, profileId: input.profileId, prompt: input.prompt, pool: input.pool } as WorkflowRun);
		},
		nodes: async (id) => ok(members[id]!.nodes),
		// A member's queue holds what it had plus every run sent to it here (none ends in these tests).
		queueLength: async (id) =>
			members[id]!.queue === 'down'
				? fail(appError('network', 'The server did not answer.'))
				: ok((members[id]!.queue as number) + submitted.filter((s) => s.profileId === id).length),
		inputFile: async (id, name) => {
			const bytes = members[id]!.files?.get(name);
			return bytes ? ok(bytes) : fail(appError('not-found', 'No such file.'));
		},
		sendInput: async (to, file) => {
			sentFiles.push({ to, name: file.name });
			return ok({ name: `hashed_${file.name}` });
		}
	};
	const service = new PoolService(ctx, port, () => 1000);
	return { api: service.api(), submitted, sentFiles, emit: ctx.emit, listeners };
}

const pool = (over: Partial<PoolInput> = {}): PoolInput => ({
	name: 'Home GPUs',
	members: ['a', 'b', 'c'].map((profileId) => ({ profileId, weight: 1, enabled: true, paid: false })),
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
