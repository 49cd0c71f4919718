/**
 * The self-hosted proxy mode behaves as the real open-source proxy does (the spec page's last
 * section), not as the contract says: one test per observed deviation.
 */
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import partnerNodes from '../../../src/lib/workflows/rules/examples/partner-nodes.json';
import type { ApiPrompt } from '../../../src/lib/workflows/protocol/workflow-api';
import { control } from '../test-support';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { png, smallJob, twoOutputJob } from './fixtures';
import { faults, pollJob, stepMs, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();
const proxy = () => v2Client(bed.emu, 'self-hosted');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PLUS_ZERO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
type Err = { error: { code: string; details: Record<string, unknown> | null } };
type Asset = { id: string; hash: string | null; url: string; created_new?: boolean };
const configure = (body: Record<string, unknown>) => control(bed.emu, '/v2/self-hosted', body);

describe('self-hosted proxy: access', () => {
	it('needs no credential by default', async () => {
		expect((await v2Client(bed.emu, 'self-hosted', null).submit(smallJob())).status).toBe(201);
	});

	it('with a static token answers 401 without it, but leaves preflights and /health open', async () => {
		await configure({ token: 'proxy-token', corsOrigins: ['http://localhost:5173'] });
		const anonymous = v2Client(bed.emu, 'self-hosted', null);
		const refused = await anonymous.get<Err>('/jobs/x');
		expect(refused.status).toBe(401);
		expect(refused.body.error.code).toBe('unauthorized');
		expect((await v2Client(bed.emu, 'self-hosted', 'proxy-token').get<Err>('/jobs/x')).status).toBe(404);
		for (const path of ['/health', '/api/v2/health']) expect((await fetch(`${bed.emu.urls.selfHosted}${path}`)).status).toBe(200);
		const preflight = await anonymous.raw('/jobs', {
			method: 'OPTIONS',
			headers: {
				Origin: 'http://localhost:5173',
				'Access-Control-Request-Method': 'POST',
				'Access-Control-Request-Headers': 'authorization'
			}
		});
		expect(preflight.status).toBe(204);
	});

	it('allows exact origins only: another origin gets 403 forbidden_origin with no CORS headers', async () => {
		await configure({ corsOrigins: ['http://localhost:5173'] });
		const listed = await proxy().raw('/jobs/x', { headers: { Origin: 'http://localhost:5173' } });
		expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
		const other = await proxy().raw('/jobs/x', { headers: { Origin: 'http://127.0.0.1:5173' } });
		expect(other.status).toBe(403);
		expect(((await other.json()) as Err).error.code).toBe('forbidden_origin');
		expect(other.headers.get('access-control-allow-origin')).toBeNull();
		const otherPreflight = await proxy().raw('/jobs', {
			method: 'OPTIONS',
			headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST' }
		});
		expect(otherPreflight.status).toBe(403);
		expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();
	});

	it('exposes only Retry-After, Content-Range and Accept-Ranges; preflights allow three headers for 600 s', async () => {
		await configure({ corsOrigins: ['http://localhost:5173'] });
		const res = await proxy().raw('/jobs/x', { headers: { Origin: 'http://localhost:5173' } });
		expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After, Content-Range, Accept-Ranges');
		const preflight = await proxy().raw('/jobs', {
			method: 'OPTIONS',
			headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-other' }
		});
		expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key');
		expect(preflight.headers.get('access-control-max-age')).toBe('600');
	});

	it('refuses "*" as an allowed origin, as the proxy does', async () => {
		await expect(configure({ corsOrigins: ['*'] })).rejects.toThrow(/400/);
	});
});

describe('self-hosted proxy: ids and times', () => {
	it('gives bare UUIDs to jobs and uploads, and long opaque output ids that resolve URL-encoded', async () => {
		const asset = (await proxy().upload<Asset>(await png(1))).body;
		expect(asset.id).toMatch(UUID);
		const { body } = await proxy().submit<JobBody>(smallJob());
		expect(body.id).toMatch(UUID);
		const done = await pollJob(proxy(), body, terminal);
		const outputId = done.outputs[0]!['id'] as string;
		expect(outputId.length).toBeGreaterThan(140);
		expect(outputId).toMatch(/[.]/);
		expect(outputId).toMatch(/^[A-Za-z0-9._-]+$/);
		expect((await proxy().get(`/assets/${encodeURIComponent(outputId)}`)).status).toBe(200);
	});

	it('forgets output ids after a restart (404) while uploads still resolve', async () => {
		const upload = (await proxy().upload<Asset>(await png(2))).body;
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		const outputId = encodeURIComponent(done.outputs[0]!['id'] as string);
		await control(bed.emu, '/v2/self-hosted/restart');
		expect((await proxy().get<Err>(`/assets/${outputId}`)).status).toBe(404);
		expect((await proxy().get<Err>(`/assets/${outputId}/content`)).status).toBe(404);
		expect((await proxy().get(`/assets/${upload.id}`)).status).toBe(200);
	});

	it('writes times with microseconds and +00:00, and leaves started_at and completed_at null', async () => {
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		expect(done['created_at']).toMatch(PLUS_ZERO);
		expect(done['expires_at']).toMatch(PLUS_ZERO);
		expect(done['started_at']).toBeNull();
		expect(done['completed_at']).toBeNull();
		expect(done.outputs[0]!['url_expires_at']).toMatch(PLUS_ZERO);
	});

	it('moves url_expires_at forward on every read', async () => {
		const { id } = (await proxy().upload<Asset>(await png(3))).body;
		const a = (await proxy().get<{ url_expires_at: string }>(`/assets/${id}`)).body.url_expires_at;
		await control(bed.emu, '/clock/advance', { ms: 1000 });
		const b = (await proxy().get<{ url_expires_at: string }>(`/assets/${id}`)).body.url_expires_at;
		expect(Date.parse(b)).toBeGreaterThan(Date.parse(a));
	});
});

describe('self-hosted proxy: jobs', () => {
	it('answers 201 queued with null progress even when the job already runs, then zeros while polled', async () => {
		await stepMs(bed.emu, 30);
		const { status, body } = await proxy().submit<JobBody>(smallJob(20));
		expect(status).toBe(201);
		expect(bed.emu.workflow.engine.book.runningJobs().map((j) => j.id)).toContain(body.id);
		expect(body.status).toBe('queued');
		expect(body.progress).toBeNull();
		const running = await pollJob(proxy(), body, (j) => j.status === 'running');
		expect(running.progress).toEqual({ value: 0, nodes_done: 0, nodes_total: 0 });
	});

	it('reports outputs with size_bytes 0 and hash null', async () => {
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		expect(done.outputs[0]).toMatchObject({ size_bytes: 0, hash: null, type: 'image' });
	});

	it('answers any reuse of a key with 422 idempotency_key_reuse: no replay, no 409', async () => {
		const headers = { 'Idempotency-Key': 'same' };
		await faults(bed.emu, { v2HoldMs: 200 });
		const first = proxy().submit<JobBody>(smallJob(), {}, headers);
		await sleep(50);
		const inFlight = await proxy().submit<Err>(smallJob(), {}, headers);
		expect(inFlight.status).toBe(422);
		expect((await first).status).toBe(201);
		const again = await proxy().submit<Err>(smallJob(), {}, headers);
		expect(again.status).toBe(422);
		expect(again.body.error.code).toBe('idempotency_key_reuse');
		expect(again.headers.get('idempotency-replayed')).toBeNull();
	});

	it('lists its jobs newest first with GET /jobs?status=&limit=', async () => {
		const a = (await proxy().submit<JobBody>(smallJob(2, 1))).body;
		const b = (await proxy().submit<JobBody>(smallJob(2, 2))).body;
		await pollJob(proxy(), b, terminal);
		await v2Client(bed.emu, 'managed').submit(smallJob(2, 3));
		const all = await proxy().get<{ jobs: JobBody[] }>('/jobs');
		expect(all.body.jobs.map((j) => j.id)).toEqual([b.id, a.id]);
		expect((await proxy().get<{ jobs: JobBody[] }>('/jobs?limit=1')).body.jobs).toHaveLength(1);
		expect((await proxy().get<{ jobs: JobBody[] }>('/jobs?status=running')).body.jobs).toHaveLength(0);
		// Several statuses at once, comma-separated, as the real proxy takes them.
		expect((await proxy().get<{ jobs: JobBody[] }>('/jobs?status=running,succeeded')).body.jobs.map((j) => j.id)).toContain(b.id);
		expect((await proxy().get('/jobs?status=running,nope')).status).toBe(400);
	});

	it('answers 503 upstream_unreachable (as the real proxy) while the ComfyUI behind it is down; /health still answers', async () => {
		await control(bed.emu, '/workflow/restart', { downSeconds: 60 });
		const res = await proxy().get<Err>('/jobs');
		expect(res.status).toBe(503);
		expect(res.body.error.code).toBe('upstream_unreachable');
		expect((await proxy().raw('/health')).status).toBe(200);
		await control(bed.emu, '/reset', {});
		expect((await proxy().get('/jobs')).status).toBe(200);
	});

	it('serves the routes beyond the contract: GET /jobs/{id}/workflow and DELETE /assets/{id}', async () => {
		const workflow = smallJob(2, 4);
		const job = (await proxy().submit<JobBody>(workflow)).body;
		const sent = await proxy().get<{ workflow: Record<string, { class_type: string }> }>(`/jobs/${job.id}/workflow`);
		expect(sent.status).toBe(200);
		expect(Object.keys(sent.body.workflow).sort()).toEqual(Object.keys(workflow).sort());
		expect((await proxy().get<Err>('/jobs/3f2b8c1e-6a4d-4e8b-9c1f-2d7e5a9b0c11/workflow')).status).toBe(404);

		const asset = (await proxy().upload<Asset>(await png(20))).body;
		expect((await proxy().raw(`/assets/${asset.id}`, { method: 'DELETE' })).status).toBe(204);
		expect((await proxy().get<Err>(`/assets/${asset.id}`)).status).toBe(404);
		expect((await proxy().raw(`/assets/${asset.id}`, { method: 'DELETE' })).status).toBe(404);
		// Not on the contract's surfaces.
		const managed = (await v2Client(bed.emu, 'managed').upload<Asset>(await png(21))).body;
		expect((await v2Client(bed.emu, 'managed').raw(`/assets/${managed.id}`, { method: 'DELETE' })).status).toBe(404);
		expect((await v2Client(bed.emu, 'managed').get<Asset>(`/assets/${managed.id}`)).status).toBe(200);
	});

	it('accepts only api_key_comfy_org in extra_data, and runs partner nodes with it', async () => {
		const refused = await proxy().submit<Err>(smallJob(), { extra_data: { client_id: 'x' } });
		expect(refused.status).toBe(422);
		const { status, body } = await proxy().submit<JobBody>(partnerNodes as ApiPrompt, { extra_data: { api_key_comfy_org: 'comfy-login' } });
		expect(status).toBe(201);
		expect((await pollJob(proxy(), body, terminal, 15_000)).status).toBe('succeeded');
	});

	it('in front of a stock ComfyUI, passes api_key_comfy_org through: partner nodes run with it and fail at run time without it', async () => {
		await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		const without = await proxy().submit<JobBody>(partnerNodes as ApiPrompt);
		expect(without.status).toBe(201);
		const failed = await pollJob(proxy(), without.body, terminal, 15_000);
		expect(failed.status).toBe('failed');
		expect(failed['error']).toMatchObject({ code: 'node_execution_error', message: expect.stringMatching(/Unauthorized/) });
		const withKey = await proxy().submit<JobBody>(partnerNodes as ApiPrompt, { extra_data: { api_key_comfy_org: 'comfy-login' } });
		expect((await pollJob(proxy(), withKey.body, terminal, 15_000)).status).toBe('succeeded');
	});

	it("carries ComfyUI's own node_errors in invalid_workflow, not [{field, reason}]", async () => {
		const workflow = smallJob();
		workflow['3']!.inputs['steps'] = 'many';
		const res = await proxy().submit<Err>(workflow);
		expect(res.body.error.code).toBe('invalid_workflow');
		expect(res.body.error.details!['node_errors']).toMatchObject({
			'3': { errors: [expect.objectContaining({ type: expect.any(String) })], class_type: 'KSampler' }
		});
	});

	it('fails at run time with node_execution_error and traceback null', async () => {
		await control(bed.emu, '/scenario', { name: 'models-unavailable' });
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		expect(done['error']).toMatchObject({ code: 'node_execution_error', traceback: null });
	});

	it('never answers 402 (credits are not a proxy concern)', async () => {
		await faults(bed.emu, { v2InsufficientCredits: true });
		expect((await proxy().submit(smallJob())).status).toBe(201);
	});

	it('cancels a running job to canceled at once; a finished one unchanged; an unknown id 404', async () => {
		await stepMs(bed.emu, 30);
		const { body } = await proxy().submit<JobBody>(smallJob(40));
		await pollJob(proxy(), body, (j) => j.status === 'running');
		expect((await proxy().post<JobBody>(body.urls.cancel, {})).body.status).toBe('canceled');
		expect((await proxy().post<JobBody>(body.urls.cancel, {})).body.status).toBe('canceled');
		expect((await proxy().post<Err>('/jobs/00000000-0000-0000-0000-000000000000/cancel', {})).status).toBe(404);
	});
});

describe('self-hosted proxy: assets', () => {
	it('answers the same bytes again with 200, the same asset id and created_new false', async () => {
		const bytes = await png(4);
		const first = await proxy().upload<Asset>(bytes);
		expect(first.status).toBe(201);
		const again = await proxy().upload<Asset>(bytes, { file_path: 'other.png' });
		expect(again.status).toBe(200);
		expect(again.body.id).toBe(first.body.id);
		expect(again.body.created_new).toBe(false);
	});

	it('never answers from-hash with 201: a hit is 200 with the same id', async () => {
		const first = (await proxy().upload<Asset>(await png(5))).body;
		const hit = await proxy().post<Asset>('/assets/from-hash', { hash: first.hash, file_path: 'new-name.png' });
		expect(hit.status).toBe(200);
		expect(hit.body.id).toBe(first.id);
		expect(hit.body.created_new).toBe(false);
	});

	it('serves content directly with Range: 200 whole, 206 with Content-Range, never a 302', async () => {
		const bytes = await png(6);
		const { id } = (await proxy().upload<Asset>(bytes)).body;
		const whole = await proxy().raw(`/assets/${id}/content`);
		expect(whole.status).toBe(200);
		expect(whole.headers.get('content-type')).toBe('image/png');
		expect(whole.headers.get('accept-ranges')).toBe('bytes');
		expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
		const part = await proxy().raw(`/assets/${id}/content`, { headers: { Range: 'bytes=0-3' } });
		expect(part.status).toBe(206);
		expect(part.headers.get('content-range')).toBe(`bytes 0-3/${bytes.length}`);
		expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
	});

	it('answers an unsatisfiable range with 502 upstream_error, not 416', async () => {
		const { id } = (await proxy().upload<Asset>(await png(7))).body;
		const res = await proxy().raw(`/assets/${id}/content`, { headers: { Range: 'bytes=999999-' } });
		expect(res.status).toBe(502);
		expect(((await res.json()) as Err).error.code).toBe('upstream_error');
	});
});

describe('self-hosted proxy: event stream', () => {
	it('sends `: keepalive` comments on silence', async () => {
		await configure({ keepaliveMs: 50 });
		await stepMs(bed.emu, 500);
		const { body } = await proxy().submit<JobBody>(smallJob(20));
		const read = await proxy().events(body.urls.events, { until: (_e, c) => c.length >= 2 });
		expect(read.comments.slice(0, 2)).toEqual(['keepalive', 'keepalive']);
		expect(read.raw).toContain(': keepalive\n\n');
	});

	it('sends output frames after the terminal status, then ends', async () => {
		await stepMs(bed.emu, 10);
		const { body } = await proxy().submit<JobBody>(twoOutputJob(3));
		const read = await proxy().events(body.urls.events, { timeoutMs: 15_000 });
		const names = read.events.map((e) => e.event);
		const terminalAt = names.findIndex((n, i) => n === 'status' && read.events[i]!.data['status'] === 'succeeded');
		expect(terminalAt).toBeGreaterThan(0);
		expect(names.slice(terminalAt + 1)).toEqual(['output', 'output']);
		expect(read.ended).toBe('closed');
		expect(read.raw).toMatch(/^event: status\ndata: \{"status":"running"\}\n\n/);
	});

	it("gives a finished job's stream one status frame, then the end", async () => {
		const done = await pollJob(proxy(), (await proxy().submit<JobBody>(smallJob())).body, terminal);
		const read = await proxy().events(done.urls.events);
		expect(read.events).toEqual([expect.objectContaining({ event: 'status', data: { status: 'succeeded' } })]);
	});

	it('allows 8 concurrent streams; the ninth gets 429 too_many_streams with Retry-After: 5', async () => {
		await stepMs(bed.emu, 100);
		const { body } = await proxy().submit<JobBody>(smallJob(40));
		const opened = await Promise.all(
			Array.from({ length: 8 }, () => {
				let resolveFirst: () => void;
				const first = new Promise<void>((r) => (resolveFirst = r));
				const reading = proxy().events(body.urls.events, { timeoutMs: 20_000, onEvent: () => resolveFirst() });
				return first.then(() => ({ reading }));
			})
		);
		expect(opened).toHaveLength(8);
		const ninth = await proxy().events(body.urls.events);
		expect(ninth.status).toBe(429);
		expect((ninth.body as Err).error.code).toBe('too_many_streams');
		expect(ninth.headers.get('retry-after')).toBe('5');
		await control(bed.emu, '/v2/streams/drop');
		await Promise.allSettled(opened.map((o) => o.reading));
	});
});
