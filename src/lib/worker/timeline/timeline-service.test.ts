import { describe, expect, it } from 'vitest';
import { newWorkflowRun } from '../../domain/run-record';
import type { WorkerEvent } from '../api';
import type { WorkerContext } from '../context';
import { MemoryStore } from '../kv-store';
import { TimelineService, TIMELINE_KEY } from './timeline-service';

function harness() {
	const kv = new MemoryStore();
	const listeners: Array<(e: WorkerEvent) => void> = [];
	const ctx = { kv, onEmit: (l: (e: WorkerEvent) => void) => listeners.push(l) } as unknown as WorkerContext;
	const service = new TimelineService(ctx);
	const emit = async (e: WorkerEvent) => {
		listeners.forEach((l) => l(e));
		await new Promise((r) => setTimeout(r, 0));
	};
	return { kv, api: service.api(), emit };
}

const run = (id: string, createdAt: number) => ({
	...newWorkflowRun({ id, profileId: 'p', title: `Run ${id}`, workflowId: null, prompt: {}, seeds: {}, partner: false, now: createdAt }),
	status: 'queued' as const
});

describe('the timeline index', () => {
	it('follows saves through the events they emit, and forgets deleted runs', async () => {
		const { kv, api, emit } = harness();
		await kv.set('run:a', run('a', 1));
		await emit({ type: 'run', run: run('a', 1) });
		await emit({ type: 'run', run: { ...run('a', 1), status: 'succeeded' } });
		expect((await api.timeline({})).map((e) => [e.id, e.status])).toEqual([['a', 'succeeded']]);
		await kv.delete('run:a');
		await emit({ type: 'run-deleted', id: 'a' });
		expect(await api.timeline({})).toEqual([]);
	});

	it('repairs itself from full records written some other way, model runs included', async () => {
		const { kv, api } = harness();
		await kv.set('run:a', run('a', 1));
		await kv.set('run:b', run('b', 3));
		await kv.set('modelrun:m', {
			schemaVersion: 1,
			kind: 'model',
			id: 'm',
			profileId: 'p',
			modelId: 'lumen/flux',
			title: 'Flux',
			status: 'succeeded',
			createdAt: 2,
			creditsUsed: 7
		});
		await kv.set(`${TIMELINE_KEY}gone`, { id: 'gone' });
		const entries = await api.timeline({});
		expect(entries.map((e) => e.id)).toEqual(['b', 'm', 'a']);
		expect(entries[1]).toMatchObject({ kind: 'model', subject: 'lumen/flux', credits: 7, href: '/models/runs/m' });
		expect(await kv.get(`${TIMELINE_KEY}gone`)).toBeUndefined();
		expect((await api.timeline({ limit: 2 })).map((e) => e.id)).toEqual(['b', 'm']);
	});
});
