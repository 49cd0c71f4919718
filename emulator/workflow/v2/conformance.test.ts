/**
 * Conformance run of the v2 contract (`../shared/spec/workflow-service-v2.md`, everything but its
 * last section) against the managed surface: one test per rule, named by the rule's own words.
 * The self-hosted proxy's deviations are tested apart, in self-hosted.test.ts.
 */
import { describe, expect, it } from 'vitest';
import partnerNodes from '../../../src/lib/workflows/rules/examples/partner-nodes.json';
import type { ApiPrompt } from '../../../src/lib/workflows/protocol/workflow-api';
import { V2_HASH_PATTERN, JOB_STATUSES } from '../../../src/lib/workflows/protocol/workflow-v2';
import { control } from '../test-support';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { assetRef, loadAssetJob, png, smallJob, UI_FORMAT_EXPORT } from './fixtures';
import { faults, pollJob, stepMs, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();
const c = () => v2Client(bed.emu, 'managed');
type Err = { error: { code: string; message: string; details: Record<string, unknown> | null } };
type Asset = Record<string, unknown> & { id: string; hash: string | null; url: string | null };

const expectEnvelope = (body: unknown, code: string) => {
	const { error } = body as Err;
	expect(Object.keys(body as object)).toEqual(['error']);
	expect(Object.keys(error).sort()).toEqual(['code', 'details', 'message']);
	expect(error.code).toBe(code);
	expect(typeof error.message).toBe('string');
	expect(typeof error.details).toBe('object');
};

describe('v2 contract conformance (managed)', () => {
	it('"Every path below is under /api/v2. A missing or wrong credential is 401 unauthorized"', async () => {
		const res = await v2Client(bed.emu, 'managed', 'wrong').get<Err>('/jobs/job_1');
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe('unauthorized');
	});

	it('"Error envelope: {"error": {"code": string, "message": string, "details": object or null}}"', async () => {
		const res = await c().get<Err>('/jobs/job_unknown');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String), details: null } });
	});

	it('"Asset: id, hash (blake3:<64 hex>), size_bytes, content_type, file_path, created_new, created_at, url, url_expires_at"', async () => {
		const { body } = await c().upload<Asset>(await png(1));
		expect(Object.keys(body).sort()).toEqual(
			['id', 'hash', 'size_bytes', 'content_type', 'file_path', 'created_new', 'created_at', 'url', 'url_expires_at'].sort()
		);
		expect(body.hash).toMatch(V2_HASH_PATTERN);
	});

	it('"POST /assets ... 201 new blob, 200 dedup hit"', async () => {
		const bytes = await png(2);
		expect((await c().upload(bytes)).status).toBe(201);
		expect((await c().upload(bytes)).status).toBe(200);
	});

	it('"202 accepted but still being scanned (poll the asset until ready)"', async () => {
		await faults(bed.emu, { v2ScanMs: 1000 });
		const res = await c().upload<Asset>(await png(3));
		expect(res.status).toBe(202);
		await control(bed.emu, '/clock/advance', { ms: 1000 });
		expect((await c().get(`/assets/${res.body.id}`)).status).toBe(200);
	});

	it('"expected_hash (blake3:<hex>, optional, verified, never trusted) ... 409 hash_mismatch"', async () => {
		const res = await c().upload<Err>(await png(4), { expected_hash: `blake3:${'1'.repeat(64)}` });
		expect(res.status).toBe(409);
		expectEnvelope(res.body, 'hash_mismatch');
	});

	it('"hash ... null while the server has not computed it yet"', async () => {
		await faults(bed.emu, { v2HashDelayMs: 1000 });
		expect((await c().upload<Asset>(await png(5))).body.hash).toBeNull();
	});

	it('"url: short-lived content URL; every read of the asset returns a fresh one"', async () => {
		const { id } = (await c().upload<Asset>(await png(6))).body;
		const urls = await Promise.all([1, 2, 3].map(async () => (await c().get<Asset>(`/assets/${id}`)).body.url));
		expect(new Set(urls).size).toBe(3);
	});

	it('"POST /assets/from-hash ... 201 minted, 200 an identical reference existed; 404 blob_not_found"', async () => {
		const { hash } = (await c().upload<Asset>(await png(7))).body;
		expect((await c().post('/assets/from-hash', { hash, file_path: 'x.png' })).status).toBe(201);
		expect((await c().post('/assets/from-hash', { hash, file_path: 'x.png' })).status).toBe(200);
		const miss = await c().post<Err>('/assets/from-hash', { hash: `blake3:${'2'.repeat(64)}` });
		expect(miss.status).toBe(404);
		expectEnvelope(miss.body, 'blob_not_found');
	});

	it('"HEAD /assets/by-hash/{hash}: does a blob with this hash exist for me ... 200 or 404"', async () => {
		const { hash } = (await c().upload<Asset>(await png(8))).body;
		expect((await c().raw(`/assets/by-hash/${hash}`, { method: 'HEAD' })).status).toBe(200);
		expect((await c().raw(`/assets/by-hash/blake3:${'3'.repeat(64)}`, { method: 'HEAD' })).status).toBe(404);
	});

	it('"GET /assets/{id}/content ... 302 to a fresh signed URL (managed, per-deployment)"', async () => {
		const { id } = (await c().upload<Asset>(await png(9))).body;
		const res = await c().raw(`/assets/${id}/content`);
		expect(res.status).toBe(302);
		expect(new URL(res.headers.get('location')!).searchParams.get('X-Goog-Signature')).toMatch(/^[0-9a-f]{64}$/);
	});

	it('"Job: id, status, created_at, started_at, completed_at, expires_at, queue_position, progress, outputs, error, metrics, urls"', async () => {
		const { body } = await c().submit<JobBody>(smallJob());
		for (const f of [
			'id',
			'status',
			'created_at',
			'started_at',
			'completed_at',
			'expires_at',
			'queue_position',
			'progress',
			'outputs',
			'error',
			'urls'
		])
			expect(body).toHaveProperty(f);
		expect(JOB_STATUSES).toContain(body.status);
	});

	it('"urls: {self, events, cancel} URI references (possibly relative: resolve against the URL of the response that carried them)"', async () => {
		const { body } = await c().submit<JobBody>(smallJob());
		const self = new URL(body.urls.self, c().url('/jobs')).toString();
		expect((await fetch(self, { headers: c().auth })).status).toBe(200);
	});

	it('"Lifecycle: queued → running → succeeded"', async () => {
		await stepMs(bed.emu, 20);
		const first = (await c().submit<JobBody>(smallJob(5))).body;
		const second = (await c().submit<JobBody>(smallJob(5, 9))).body;
		expect(second.status).toBe('queued');
		const read = await c().events(second.urls.events, { timeoutMs: 15_000 });
		const statuses = read.events.filter((e) => e.event === 'status').map((e) => e.data['status']);
		expect(statuses).toEqual(['queued', 'running', 'succeeded']);
		await pollJob(c(), first, terminal);
	});

	it('"a cancel moves running → canceling → canceled"', async () => {
		await stepMs(bed.emu, 40);
		const { body } = await c().submit<JobBody>(smallJob(40));
		await pollJob(c(), body, (j) => j.status === 'running');
		expect((await c().post<JobBody>(body.urls.cancel, {})).body.status).toBe('canceling');
		expect((await pollJob(c(), body, terminal)).status).toBe('canceled');
	});

	it('"POST /jobs/{id}/cancel: ask to cancel; idempotent ... 200 Job: canceling, or the terminal state unchanged"', async () => {
		const done = await pollJob(c(), (await c().submit<JobBody>(smallJob())).body, terminal);
		for (let i = 0; i < 2; i++) expect((await c().post<JobBody>(done.urls.cancel, {})).body.status).toBe('succeeded');
	});

	it('"Progress (a complete snapshot each time ...): value (0..1 ...), nodes_done, nodes_total"', async () => {
		const done = await pollJob(c(), (await c().submit<JobBody>(smallJob())).body, terminal);
		expect(done.progress).toMatchObject({ value: 1, nodes_done: 7, nodes_total: 7 });
	});

	it('"Output (every output is an asset): node_id, name, type, content_type, size_bytes, id, hash, url, url_expires_at"', async () => {
		const done = await pollJob(c(), (await c().submit<JobBody>(smallJob())).body, terminal);
		const out = done.outputs[0]!;
		expect(Object.keys(out).sort()).toEqual([
			'content_type',
			'hash',
			'id',
			'name',
			'node_id',
			'size_bytes',
			'type',
			'url',
			'url_expires_at'
		]);
		expect((await c().get(`/assets/${out['id'] as string}`)).status).toBe(200);
	});

	it('"JobError: code, message, and nullable node_id, class_type, traceback"', async () => {
		await control(bed.emu, '/scenario', { name: 'models-unavailable' });
		const done = await pollJob(c(), (await c().submit<JobBody>(smallJob())).body, terminal);
		expect(Object.keys(done['error'] as object).sort()).toEqual(['class_type', 'code', 'message', 'node_id', 'traceback']);
	});

	it('"expires_at: retention deadline" (a job not finished by then is expired)', async () => {
		await stepMs(bed.emu, 1000);
		const { body } = await c().submit<JobBody>(smallJob(50));
		await control(bed.emu, '/clock/advance', { ms: Date.parse(body['expires_at'] as string) - Date.parse(body['created_at'] as string) });
		expect((await c().get<JobBody>(body.urls.self)).body.status).toBe('expired');
	});

	it('"invalid_workflow (422, details.node_errors keyed by node id, each a list of {field, reason})"', async () => {
		const w = smallJob();
		w['5']!.inputs['width'] = -3;
		const res = await c().submit<Err>(w);
		expect(res.status).toBe(422);
		expect(res.body.error.details!['node_errors']).toEqual({ '5': [{ field: 'width', reason: expect.any(String) }] });
	});

	it('"workflow_format_ui (a UI-format export with nodes/links)"', async () => {
		const res = await c().submit<Err>(UI_FORMAT_EXPORT);
		expect(res.status).toBe(422);
		expectEnvelope(res.body, 'workflow_format_ui');
	});

	it('"A reference that is malformed, unknown, not ready or not the caller\'s fails the submission with 422 missing_asset"', async () => {
		const res = await c().submit<Err>(loadAssetJob(assetRef('asset_nope')));
		expect(res.status).toBe(422);
		expectEnvelope(res.body, 'missing_asset');
	});

	it('"info.id is required and authoritative; hash and file_path are hints"', async () => {
		const asset = (await c().upload<Asset>(await png(10))).body;
		const ref = assetRef(asset.id, { hash: `blake3:${'4'.repeat(64)}`, file_path: 'wrong-name.png' });
		const { status, body } = await c().submit<JobBody>(loadAssetJob(ref));
		expect(status).toBe(201);
		expect((await pollJob(c(), body, terminal)).status).toBe('succeeded');
	});

	it('"webhook_url and inputs are reserved and rejected"', async () => {
		expect((await c().submit(smallJob(), { webhook_url: 'https://h.example' })).status).toBe(422);
		expect((await c().submit(smallJob(), { inputs: {} })).status).toBe(422);
	});

	it('"402" (insufficient_credits, managed and per-deployment only)', async () => {
		await faults(bed.emu, { v2InsufficientCredits: true });
		const res = await c().submit<Err>(smallJob());
		expect(res.status).toBe(402);
		expectEnvelope(res.body, 'insufficient_credits');
	});

	it('"queue_full (429, with Retry-After)"', async () => {
		await faults(bed.emu, { v2QueueFull: true });
		const res = await c().submit<Err>(smallJob());
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
	});

	it('a queue of bounded depth refuses with queue_full while it is full, and takes jobs again once one starts', async () => {
		await control(bed.emu, '/workflow/timing', { holdNode: { classType: 'KSampler' } });
		await faults(bed.emu, { v2QueueLimit: 1 });
		const running = await c().submit<JobBody>(smallJob(3, 1));
		const waiting = await c().submit<JobBody>(smallJob(3, 2));
		const refused = await c().submit<Err>(smallJob(3, 3));
		expect([running.status, waiting.status, refused.status, refused.headers.get('retry-after')]).toEqual([201, 201, 429, '1']);
		expectEnvelope(refused.body, 'queue_full');
		await control(bed.emu, '/workflow/release', { promptId: running.body.id });
		await pollJob(c(), running.body, terminal);
		// The waiting job started (and is held): the queue has room again.
		expect((await c().submit<JobBody>(smallJob(3, 4))).status).toBe(201);
		await control(bed.emu, '/workflow/timing', { holdNode: null });
		await control(bed.emu, '/workflow/release', {});
	});

	it('"a retry with the same key and the same body replays the recorded answer (header Idempotency-Replayed: true, the same job, no second execution)"', async () => {
		const h = { 'Idempotency-Key': crypto.randomUUID() };
		const a = await c().submit<JobBody>(smallJob(), {}, h);
		const b = await c().submit<JobBody>(smallJob(), {}, h);
		expect([b.status, b.body.id, b.headers.get('idempotency-replayed')]).toEqual([a.status, a.body.id, 'true']);
	});

	it('"the same key with a different body is 422 idempotency_key_reuse"', async () => {
		const h = { 'Idempotency-Key': crypto.randomUUID() };
		await c().submit(smallJob(3, 1), {}, h);
		expectEnvelope((await c().submit<Err>(smallJob(3, 2), {}, h)).body, 'idempotency_key_reuse');
	});

	it('"a retry while the first call is still in flight is 409 idempotency_conflict with Retry-After"', async () => {
		await faults(bed.emu, { v2HoldMs: 200 });
		const h = { 'Idempotency-Key': crypto.randomUUID() };
		const first = c().upload(await png(11), {}, h);
		await new Promise((r) => setTimeout(r, 50));
		const second = await c().upload<Err>(await png(11), {}, h);
		expect(second.status).toBe(409);
		expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
		await first;
	});

	it('"Keys expire after 24 hours"', async () => {
		const h = { 'Idempotency-Key': crypto.randomUUID() };
		const a = await c().submit<JobBody>(smallJob(), {}, h);
		await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 });
		expect((await c().submit<JobBody>(smallJob(), {}, h)).body.id).not.toBe(a.body.id);
	});

	it('"GET /jobs/{id}/events: on connect the current status, the latest progress and the latest preview"', async () => {
		await stepMs(bed.emu, 40);
		const { body } = await c().submit<JobBody>(smallJob(30));
		await pollJob(c(), body, (j) => (j.progress?.['step'] as number | null) != null);
		await new Promise((r) => setTimeout(r, 100));
		const read = await c().events(body.urls.events, { until: (e) => e.length >= 3 });
		expect(read.events.map((e) => e.event)).toEqual(['status', 'progress', 'preview']);
	});

	it('"the stream ends after the terminal status"', async () => {
		const { body } = await c().submit<JobBody>(smallJob());
		const read = await c().events(body.urls.events);
		expect(read.ended).toBe('closed');
		expect(read.events.at(-1)).toMatchObject({ event: 'status', data: { status: 'succeeded' } });
	});

	it('"progress (a Progress, throttled to about two a second)"', async () => {
		await stepMs(bed.emu, 10);
		const { body } = await c().submit<JobBody>(smallJob(150));
		const read = await c().events(body.urls.events, { timeoutMs: 15_000 });
		const n = read.events.filter((e) => e.event === 'progress').length;
		const seconds = (read.events.at(-1)!.at - read.events[0]!.at) / 1000;
		expect(n).toBeLessThanOrEqual(Math.ceil(seconds * 2) + 2);
	});

	it('"output (an Output, as soon as it is committed; the same output is on job.outputs)"', async () => {
		const { body } = await c().submit<JobBody>(smallJob());
		const read = await c().events(body.urls.events);
		const job = (await c().get<JobBody>(body.urls.self)).body;
		expect(read.events.find((e) => e.event === 'output')!.data['id']).toBe(job.outputs[0]!['id']);
	});

	it('"log ({level, message}, best effort)"', async () => {
		await stepMs(bed.emu, 20);
		const { body } = await c().submit<JobBody>(partnerNodes as ApiPrompt, { extra_data: { api_key_comfy_org: bed.emu.apiKey } });
		const read = await c().events(body.urls.events, { timeoutMs: 15_000 });
		expect(read.events.find((e) => e.event === 'log')!.data).toEqual({ level: 'info', message: expect.any(String) });
	});

	it('"The stream is live push only: no event ids, no Last-Event-ID resume"', async () => {
		const { body } = await c().submit<JobBody>(smallJob());
		const read = await c().events(body.urls.events, { headers: { 'Last-Event-ID': '3' } });
		expect(read.events.every((e) => e.id === undefined)).toBe(true);
		expect(read.events[0]!.event).toBe('status');
	});

	it('"preview ({node_id, content_type, data_base64}, a JPEG, throttled; the server keeps only the latest)"', async () => {
		await stepMs(bed.emu, 10);
		const { body } = await c().submit<JobBody>(smallJob(100));
		const read = await c().events(body.urls.events, { timeoutMs: 15_000 });
		const previews = read.events.filter((e) => e.event === 'preview');
		expect(previews.length).toBeGreaterThan(0);
		expect(previews.length).toBeLessThan(20);
		expect(Buffer.from(previews[0]!.data['data_base64'] as string, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
	});
});
