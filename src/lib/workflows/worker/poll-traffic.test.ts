/**
 * The requests of one simulated minute (fake clock) with three open runs on a local ComfyUI whose
 * socket is open and healthy, today's policy (every run reads its history and the queue every 2 s,
 * whatever the socket does) beside the new one (one queue read for all runs, history only when a
 * run leaves the queue), and `object_info` fetched once for three page opens and a submit's check.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newWorkflowRun, type WorkflowRun } from '../rules/run-record';
import type { Profile } from '../../core/rules/profile';
import type { Connection } from '../../core/worker/context';
import type { WorkflowContext } from './socket-message';
import { createGuardedFetch } from '../../core/worker/guarded-fetch';
import { MemoryStore } from '../../core/worker/kv-store';
import { RunsRepo } from './runs-repo';
import { WorkflowService } from './workflow-service';

const BASE = 'http://127.0.0.1:8188';
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function openRun(i: number): WorkflowRun {
	return {
		...newWorkflowRun({ id: `r${i}`, profileId: 'p', title: 'T', workflowId: null, prompt: {}, seeds: {}, partner: false, now: 0 }),
		promptId: `job-${i}`,
		status: i === 0 ? 'running' : 'queued'
	};
}

/** A worker on a local ComfyUI with three open runs, and every request it makes, as `METHOD /path`. */
async function minuteOfTraffic(socketAware: boolean): Promise<{ requests: string[]; objectInfo: number }> {
	const requests: string[] = [];
	const fetchImpl = async (url: string, init?: RequestInit) => {
		const path = new URL(url).pathname;
		requests.push(`${init?.method ?? 'GET'} ${path}`);
		if (path === '/api/queue')
			return json({ queue_running: [[0, 'job-0', {}, {}, []]], queue_pending: [1, 2].map((i) => [i, `job-${i}`, {}, {}, []]) });
		if (path === '/api/jobs') return new Response('404: Not Found', { status: 404 });
		if (path === '/api/object_info') return json({});
		if (path.startsWith('/api/history/')) return json({});
		return new Response('404: Not Found', { status: 404 });
	};
	const profile: Profile = { id: 'p', name: 'P', preset: 'local-comfyui', workflowUrl: BASE, routerUrl: null, createdAt: 0, updatedAt: 0 };
	const guard = { allowedOrigins: [BASE], appOrigin: 'http://app.test', fetchImpl };
	const connection: Connection = {
		profile,
		key: undefined,
		fetch: createGuardedFetch(guard),
		upload: () => Promise.reject(new Error('no uploads here'))
	};
	const kv = new MemoryStore();
	const runs = new RunsRepo(kv);
	for (const i of [0, 1, 2]) await runs.put(openRun(i));
	let leader: () => void = () => {};
	const ctx = {
		kv,
		isLeader: () => true,
		onLeader: (l: () => void) => (leader = l),
		onResync: () => {},
		onTabTopic: () => {},
		onSocketMessage: () => () => {},
		emit: () => {},
		notifyTabs: () => {},
		profiles: { activeId: async () => 'p' },
		connection: async () => ({ ok: true, value: connection }),
		...(socketAware ? { socketOpen: () => true } : {})
	} as unknown as WorkflowContext;
	const service = new WorkflowService(ctx);
	leader();
	// Three workflow-page opens and a submit's partner check ask for the node definitions.
	for (let i = 0; i < 4; i++) await service.api().objectInfo({ profileId: 'p' });
	await vi.advanceTimersByTimeAsync(60_000);
	const objectInfo = requests.filter((r) => r === 'GET /api/object_info').length;
	return { requests: requests.filter((r) => r !== 'GET /api/object_info'), objectInfo };
}

describe('traffic of one minute with three open runs and a live socket', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('is at least 5x quieter than polling every run every 2 s, and fetches object_info once', async () => {
		const today = await minuteOfTraffic(false);
		const now = await minuteOfTraffic(true);
		// Today: 30 ticks x 3 runs x (history + queue), plus the queue watch for jobs started elsewhere.
		expect(today.requests.length).toBeGreaterThanOrEqual(180);
		expect(now.requests.length * 5).toBeLessThanOrEqual(today.requests.length);
		expect(now.objectInfo).toBe(1);
		// History only in the catch-up when the worker starts (one read per run), never on the timer.
		expect(now.requests.filter((r) => r.startsWith('GET /api/history/'))).toHaveLength(3);
		console.info(`requests in one minute: today ${today.requests.length}, now ${now.requests.length}`);
	});
});
