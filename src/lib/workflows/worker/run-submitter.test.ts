/** Submitting a workflow run on a full device: the record and its key reach the device first, or nothing is sent. */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../core/rules/profile';
import type { Connection } from '../../core/worker/context';
import type { WorkflowContext } from './socket-message';
import { createGuardedFetch } from '../../core/worker/guarded-fetch';
import { MemoryStore } from '../../core/worker/kv-store';
import { QuotaWatchingStore } from '../../core/worker/quota-watching-store';
import { WorkflowService } from './workflow-service';

const BASE = 'http://127.0.0.1:8188';
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const full = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/** A worker on a local ComfyUI over a device that refuses run records (`run:`) and, with them, their keys. */
function fullDevice(outputs: string[]) {
	const requests: string[] = [];
	const fetchImpl = async (url: string, init?: RequestInit) => {
		const path = new URL(url).pathname;
		requests.push(`${init?.method ?? 'GET'} ${path}`);
		if (path === '/api/prompt') return json({ prompt_id: 'job-1', number: 1, node_errors: {} });
		if (path === '/api/object_info' || path === '/api/features') return json({});
		return json({});
	};
	const profile: Profile = { id: 'p', name: 'P', preset: 'local-comfyui', workflowUrl: BASE, routerUrl: null, createdAt: 0, updatedAt: 0 };
	const connection: Connection = {
		profile,
		key: undefined,
		fetch: createGuardedFetch({ allowedOrigins: [BASE], appOrigin: 'http://app.test', fetchImpl }),
		upload: () => Promise.reject(new Error('no uploads here'))
	};
	const device = new MemoryStore();
	const set = device.set.bind(device);
	const state = { room: false };
	device.set = async (key, value) => (key.startsWith('run:') && !state.room ? Promise.reject(full()) : set(key, value));
	const kv = new QuotaWatchingStore(device, () => {});
	const removed: string[] = [];
	kv.makeRoom = async () => {
		const oldest = outputs.shift();
		if (!oldest) return 0;
		removed.push(oldest);
		state.room = true;
		return 1;
	};
	const ctx = {
		kv,
		isLeader: () => true,
		onLeader: () => {},
		onResync: () => {},
		onTabTopic: () => {},
		onSocketMessage: () => () => {},
		emit: () => {},
		notifyTabs: () => {},
		clientId: () => 'client-1',
		profiles: { activeId: async () => 'p' },
		connection: async () => ({ ok: true, value: connection })
	} as unknown as WorkflowContext;
	return { api: new WorkflowService(ctx).api(), requests, device, removed };
}

const input = {
	profileId: 'p',
	workflowId: null,
	title: 'Text to image',
	prompt: { '1': { class_type: 'SaveImage', inputs: {} } },
	seeds: {}
};

describe('submitting a run on a full device', () => {
	it('with nothing left to remove, the run is not sent and the answer says why', async () => {
		const { api, requests, device } = fullDevice([]);
		const result = await api.submitRun(input);
		expect(result).toMatchObject({
			ok: false,
			error: { kind: 'error', runId: null, error: { kind: 'storage', message: /full.*not sent/ } }
		});
		expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
		expect(await device.keys('run:')).toEqual([]);
	});

	it('room is made by removing the oldest saved output, then the record and its key are saved and the run sent', async () => {
		const { api, requests, device, removed } = fullDevice(['output:old:0', 'output:newer:0']);
		const result = await api.submitRun(input);
		expect(result.ok).toBe(true);
		expect(removed).toEqual(['output:old:0']);
		expect(requests).toContain('POST /api/prompt');
		const [key] = await device.keys('run:');
		expect(key).toBeDefined();
		// The key it was sent under (our prompt id) points at the run.
		const byKey = await Promise.all((await device.keys('prompt:')).map((k) => device.get(k)));
		expect(byKey).toContain(key!.slice('run:'.length));
	});
});
