/**
 * The contract's rules on the two surfaces that follow it: managed (`/api/v2` on the workflow
 * origin) and the per-deployment endpoint (its own origin and key). Every rule runs in each mode.
 */
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import partnerNodes from '../../../src/lib/workflows/rules/examples/partner-nodes.json';
import type { ApiPrompt } from '../../../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, control, api } from '../test-support';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { assetRef, loadAssetJob, png, smallJob, twoOutputJob, UI_FORMAT_EXPORT } from './fixtures';
import { faults, longestGapSince, pollJob, stepMs, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();
type Err = { error: { code: string; message: string; details: Record<string, unknown> | null } };
type Asset = { id: string; hash: string | null; url: string | null; created_new?: boolean; [k: string]: unknown };

describe.each(['managed', 'deployment'] as const)('v2 %s', (mode) => {
	const client = () => v2Client(bed.emu, mode);
	const other = () => v2Client(bed.emu, mode === 'managed' ? 'deployment' : 'managed');

	describe('authentication', () => {
		it('answers 401 unauthorized in the envelope without a Bearer key, with a wrong one, or with X-API-Key', async () => {
			const key = mode === 'managed' ? bed.emu.apiKey : bed.emu.deploymentKey;
			for (const c of [
				v2Client(bed.emu, mode, null),
				v2Client(bed.emu, mode, 'wrong'),
				v2Client(bed.emu, mode, mode === 'managed' ? bed.emu.deploymentKey : bed.emu.apiKey)
			]) {
				const res = await c.get<Err>('/jobs/job_x');
				expect(res.status).toBe(401);
				expect(res.body.error).toMatchObject({ code: 'unauthorized', details: null });
			}
			const xKey = await v2Client(bed.emu, mode, null).get<Err>('/jobs/job_x', { 'X-API-Key': key });
			expect(xKey.status).toBe(401);
		});
	});

	describe('jobs', () => {
		it('answers 201 with the full Job object, ids prefixed, times in Z, urls relative to follow', async () => {
			const { status, body } = await client().submit<JobBody>(smallJob());
			expect(status).toBe(201);
			expect(body.id).toMatch(/^job_/);
			for (const f of ['created_at', 'started_at', 'completed_at', 'expires_at', 'queue_position', 'progress', 'outputs', 'error', 'urls'])
				expect(body).toHaveProperty(f);
			expect(body['created_at']).toMatch(/Z$/);
			expect(body.urls.self).toBe(`/api/v2/jobs/${body.id}`);
			const done = await pollJob(client(), body, terminal);
			expect(done.status).toBe('succeeded');
			expect(done.outputs[0]).toMatchObject({
				node_id: '9',
				type: 'image',
				content_type: 'image/png',
				id: expect.stringMatching(/^asset_/)
			});
			expect(done['completed_at']).toMatch(/Z$/);
		});

		it('runs a v2 job on the v1 engine: a v1 socket sees its events and v1 status knows it', async () => {
			const socket = await RecordingSocket.open(bed.emu);
			const { body } = await client().submit<JobBody>(smallJob());
			const events = await socket.untilDone(body.id);
			expect(events.map((e) => e.type)).toContain('execution_success');
			const v1 = await (await api(bed.emu).get(`/api/job/${body.id}/status`)).json();
			expect(v1).toEqual({ status: 'completed' });
			socket.close();
		});

		it.each(['webhook_url', 'inputs'])('rejects the reserved field %s with 422', async (field) => {
			const res = await client().submit<Err>(smallJob(), { [field]: field === 'inputs' ? {} : 'https://example.com/hook' });
			expect(res.status).toBe(422);
			expect(res.body.error.message).toContain(field);
		});

		it('answers 422 workflow_format_ui for a UI-format export', async () => {
			const res = await client().submit<Err>(UI_FORMAT_EXPORT);
			expect(res.status).toBe(422);
			expect(res.body.error.code).toBe('workflow_format_ui');
		});

		it('answers 422 invalid_workflow with details.node_errors keyed by node id, each [{field, reason}]', async () => {
			const workflow = smallJob();
			workflow['3']!.inputs['steps'] = 'many';
			const res = await client().submit<Err>(workflow);
			expect(res.status).toBe(422);
			expect(res.body.error.code).toBe('invalid_workflow');
			const nodeErrors = res.body.error.details!['node_errors'] as Record<string, Array<{ field: string; reason: string }>>;
			expect(nodeErrors['3']![0]).toEqual({ field: 'steps', reason: expect.any(String) });
		});

		it('answers 402 insufficient_credits when the account has none (fault)', async () => {
			await faults(bed.emu, { v2InsufficientCredits: true });
			const res = await client().submit<Err>(smallJob());
			expect(res.status).toBe(402);
			expect(res.body.error.code).toBe('insufficient_credits');
		});

		it('answers 429 queue_full with Retry-After when the queue is full (fault)', async () => {
			await faults(bed.emu, { v2QueueFull: true });
			const res = await client().submit<Err>(smallJob());
			expect(res.status).toBe(429);
			expect(res.body.error.code).toBe('queue_full');
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
		});

		it('gives progress snapshots: value in 0..1 from node counts and sampler steps', async () => {
			await stepMs(bed.emu, 30);
			const { body } = await client().submit<JobBody>(smallJob(20));
			const running = await pollJob(client(), body, (j) => (j.progress?.['step'] as number | null) != null);
			const p = running.progress!;
			expect(p).toMatchObject({ nodes_total: 7, current_node: '3', current_node_class: 'KSampler', steps: 20 });
			expect(p['value']).toBeGreaterThan(0);
			expect(p['value']).toBeLessThan(1);
			const done = await pollJob(client(), body, terminal, 15_000);
			expect(done.progress).toMatchObject({ value: 1, nodes_done: 7, nodes_total: 7 });
		});

		it('fills outputs in while the job runs', async () => {
			await stepMs(bed.emu, 20);
			const { body } = await client().submit<JobBody>(twoOutputJob(3));
			const partial = await pollJob(client(), body, (j) => j.outputs.length > 0);
			expect(partial.status).toBe('running');
			expect(partial.outputs).toHaveLength(1);
			const done = await pollJob(client(), body, terminal);
			expect(done.outputs.map((o) => o['node_id'])).toEqual(['9', '12']);
		});

		it('reports an execution failure in error, status failed', async () => {
			await control(bed.emu, '/scenario', { name: 'models-unavailable' });
			const { body } = await client().submit<JobBody>(smallJob());
			const done = await pollJob(client(), body, terminal);
			expect(done.status).toBe('failed');
			expect(done['error']).toMatchObject({ code: 'node_execution_error', node_id: '4', class_type: 'CheckpointLoaderSimple' });
			expect((done['error'] as { message: string }).message).toContain('ModelDownloadError');
		});

		it('expires a job not finished by expires_at (status expired); a finished one past it is 404', async () => {
			await stepMs(bed.emu, 1000);
			const first = (await client().submit<JobBody>(smallJob(50))).body;
			const queued = (await client().submit<JobBody>(smallJob(50, 2))).body;
			expect(queued.status).toBe('queued');
			expect(queued['queue_position']).toBe(0);
			expect(Date.parse(queued['expires_at'] as string) - Date.parse(queued['created_at'] as string)).toBe(24 * 3600 * 1000);
			await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 });
			expect((await client().get<JobBody>(queued.urls.self)).body.status).toBe('expired');
			expect((await client().get<JobBody>(first.urls.self)).body.status).toBe('expired');
			await stepMs(bed.emu, 2);
			const fresh = (await client().submit<JobBody>(smallJob(2))).body;
			await pollJob(client(), fresh, terminal);
			await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 });
			expect((await client().get<Err>(fresh.urls.self)).status).toBe(404);
		});

		it('cancels a running job: canceling, then canceled; again and again the same answer', async () => {
			await stepMs(bed.emu, 50);
			const { body } = await client().submit<JobBody>(smallJob(40));
			await pollJob(client(), body, (j) => j.status === 'running');
			const first = await client().post<JobBody>(body.urls.cancel, {});
			expect(first.status).toBe(200);
			expect(first.body.status).toBe('canceling');
			const again = await client().post<JobBody>(body.urls.cancel, {});
			expect(['canceling', 'canceled']).toContain(again.body.status);
			const done = await pollJob(client(), body, terminal);
			expect(done.status).toBe('canceled');
			const after = await client().post<JobBody>(body.urls.cancel, {});
			expect(after.body.status).toBe('canceled');
		});

		it('cancels a queued job at once, and leaves a finished one unchanged', async () => {
			await stepMs(bed.emu, 200);
			await client().submit<JobBody>(smallJob(20));
			const queued = (await client().submit<JobBody>(smallJob(20, 5))).body;
			expect((await client().post<JobBody>(queued.urls.cancel, {})).body.status).toBe('canceled');
			await stepMs(bed.emu, 2);
			await control(bed.emu, '/reset');
			const done = await pollJob(client(), (await client().submit<JobBody>(smallJob(2))).body, terminal);
			expect((await client().post<JobBody>(done.urls.cancel, {})).body.status).toBe('succeeded');
			expect((await client().post<Err>('/jobs/job_nope/cancel', {})).status).toBe(404);
		});

		it('serves urls under other paths in v2-relocated-urls: following works, building fails', async () => {
			await control(bed.emu, '/scenario', { name: 'v2-relocated-urls' });
			const { body } = await client().submit<JobBody>(smallJob(2));
			expect(body.urls.events).not.toBe(`/api/v2/jobs/${body.id}/events`);
			expect((await client().post<Err>(`/jobs/${body.id}/cancel`, {})).status).toBe(404);
			expect((await client().events(`/api/v2/jobs/${body.id}/events`)).status).toBe(404);
			const stream = await client().events(body.urls.events);
			expect(stream.status).toBe(200);
			expect(stream.events.at(-1)!.data['status']).toBe('succeeded');
			expect((await client().get<JobBody>(body.urls.self)).body.status).toBe('succeeded');
			expect((await client().post<JobBody>(body.urls.cancel, {})).status).toBe(200);
		});
	});

	describe('asset references in a workflow', () => {
		it("resolves a core/ASSET reference to the caller's ready asset before queueing", async () => {
			const asset = (await client().upload<Asset>(await png(1))).body;
			const { status, body } = await client().submit<JobBody>(loadAssetJob(assetRef(asset.id, { file_path: 'photo.png' })));
			expect(status).toBe(201);
			expect((await pollJob(client(), body, terminal)).status).toBe('succeeded');
		});

		it('answers 422 missing_asset for a malformed, unknown, not-ready or not-yours reference', async () => {
			const theirs = (await other().upload<Asset>(await png(2))).body;
			await faults(bed.emu, { v2ScanMs: 60_000 });
			const scanning = (await client().upload<Asset>(await png(3))).body;
			const before = bed.emu.workflow.engine.book.jobs.size;
			for (const ref of [{ __type: 'core/ASSET', info: {} }, assetRef('asset_unknown'), assetRef(scanning.id), assetRef(theirs.id)]) {
				const res = await client().submit<Err>(loadAssetJob(ref));
				expect(res.status).toBe(422);
				expect(res.body.error.code).toBe('missing_asset');
			}
			expect(bed.emu.workflow.engine.book.jobs.size).toBe(before);
		});
	});

	describe('idempotency', () => {
		it('replays the same key and body: same job, Idempotency-Replayed: true, no second execution', async () => {
			const headers = { 'Idempotency-Key': 'k-1' };
			const first = await client().submit<JobBody>(smallJob(), {}, headers);
			const jobs = bed.emu.workflow.engine.book.jobs.size;
			const again = await client().submit<JobBody>(smallJob(), {}, headers);
			expect(again.status).toBe(201);
			expect(again.headers.get('idempotency-replayed')).toBe('true');
			expect(again.body.id).toBe(first.body.id);
			expect(first.headers.get('idempotency-replayed')).toBeNull();
			expect(bed.emu.workflow.engine.book.jobs.size).toBe(jobs);
		});

		it('a dropped answer (fault v2DropAnswers) still created the job: the retry under the same key replays it', async () => {
			await faults(bed.emu, { v2DropAnswers: 1 });
			const headers = { 'Idempotency-Key': 'k-drop' };
			const jobs = bed.emu.workflow.engine.book.jobs.size;
			await expect(client().submit(smallJob(), {}, headers)).rejects.toThrow();
			expect(bed.emu.workflow.engine.book.jobs.size).toBe(jobs + 1);
			const again = await client().submit<JobBody>(smallJob(), {}, headers);
			expect(again.status).toBe(201);
			expect(again.headers.get('idempotency-replayed')).toBe('true');
			expect(bed.emu.workflow.engine.book.jobs.size).toBe(jobs + 1);
		});

		it('answers 422 idempotency_key_reuse for the same key with another body', async () => {
			await client().submit(smallJob(3, 1), {}, { 'Idempotency-Key': 'k-2' });
			const res = await client().submit<Err>(smallJob(3, 2), {}, { 'Idempotency-Key': 'k-2' });
			expect(res.status).toBe(422);
			expect(res.body.error.code).toBe('idempotency_key_reuse');
		});

		it('answers 409 idempotency_conflict with Retry-After while the first call is in flight', async () => {
			await faults(bed.emu, { v2HoldMs: 300 });
			const first = client().submit<JobBody>(smallJob(), {}, { 'Idempotency-Key': 'k-3' });
			await sleep(50);
			const second = await client().submit<Err>(smallJob(), {}, { 'Idempotency-Key': 'k-3' });
			expect(second.status).toBe(409);
			expect(second.body.error.code).toBe('idempotency_conflict');
			expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
			expect((await first).status).toBe(201);
		});

		it('forgets a key after 24 hours of emulator time', async () => {
			const first = await client().submit<JobBody>(smallJob(), {}, { 'Idempotency-Key': 'k-4' });
			await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 - 1000 });
			expect((await client().submit<JobBody>(smallJob(), {}, { 'Idempotency-Key': 'k-4' })).body.id).toBe(first.body.id);
			await control(bed.emu, '/clock/advance', { ms: 1000 });
			const later = await client().submit<JobBody>(smallJob(), {}, { 'Idempotency-Key': 'k-4' });
			expect(later.headers.get('idempotency-replayed')).toBeNull();
			expect(later.body.id).not.toBe(first.body.id);
		});

		it('answers 409 idempotency_conflict with Retry-After to an upload retried while the first is in flight', async () => {
			await faults(bed.emu, { v2HoldMs: 300 });
			const bytes = await png(18);
			const first = client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-2' });
			await sleep(50);
			const second = await client().upload<Err>(bytes, {}, { 'Idempotency-Key': 'a-2' });
			expect(second.status).toBe(409);
			expect(second.body.error.code).toBe('idempotency_conflict');
			expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
			expect((await first).status).toBe(201);
		});

		it("forgets an upload's key after 24 hours of emulator time", async () => {
			const bytes = await png(19);
			const first = await client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-3' });
			await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 - 1000 });
			expect((await client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-3' })).headers.get('idempotency-replayed')).toBe('true');
			await control(bed.emu, '/clock/advance', { ms: 1000 });
			const later = await client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-3' });
			expect(later.headers.get('idempotency-replayed')).toBeNull();
			expect(later.status, 'sent again: a dedup hit, not a replay').toBe(200);
			expect(later.body.id).not.toBe(first.body.id);
		});

		it('replays an asset upload under the same key, and refuses another file under it', async () => {
			const bytes = await png(4);
			const first = await client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-1' });
			const again = await client().upload<Asset>(bytes, {}, { 'Idempotency-Key': 'a-1' });
			expect(again.status).toBe(first.status);
			expect(again.body.id).toBe(first.body.id);
			expect(again.headers.get('idempotency-replayed')).toBe('true');
			expect((await client().upload<Err>(await png(5), {}, { 'Idempotency-Key': 'a-1' })).body.error.code).toBe('idempotency_key_reuse');
		});
	});

	describe('assets', () => {
		it('answers 201 for a new blob and 200 (created_new false, another id) for the same bytes again', async () => {
			const bytes = await png(6);
			const first = await client().upload<Asset>(bytes);
			expect(first.status).toBe(201);
			expect(first.body).toMatchObject({ created_new: true, size_bytes: bytes.length, content_type: 'image/png', file_path: 'photo.png' });
			expect(first.body.hash).toMatch(/^blake3:[0-9a-f]{64}$/);
			const second = await client().upload<Asset>(bytes, { file_path: 'again.png' });
			expect(second.status).toBe(200);
			expect(second.body.created_new).toBe(false);
			expect(second.body.hash).toBe(first.body.hash);
		});

		it("shares blobs with v1: the v2 hash is the v1 upload's BLAKE3 blob", async () => {
			const bytes = await png(7);
			await api(bed.emu).upload('/api/upload/image', 'v1.png', bytes);
			const stored = bed.emu.workflow.engine.files.get('input', 'v1.png')!;
			const asset = await client().upload<Asset>(bytes);
			expect(asset.body.hash).toBe(stored.hash);
			expect(asset.status).toBe(mode === 'managed' ? 200 : 201);
		});

		it('answers 202 while scanning (fault) and the asset reads 202 with no url until ready', async () => {
			await faults(bed.emu, { v2ScanMs: 5000 });
			const res = await client().upload<Asset>(await png(8));
			expect(res.status).toBe(202);
			expect(res.body.url).toBeNull();
			expect((await client().get<Asset>(`/assets/${res.body.id}`)).status).toBe(202);
			await control(bed.emu, '/clock/advance', { ms: 5000 });
			const ready = await client().get<Asset>(`/assets/${res.body.id}`);
			expect(ready.status).toBe(200);
			expect(ready.body.url).toMatch(/^http/);
		});

		it('checks expected_hash: 409 hash_mismatch when it differs, 201 when it matches', async () => {
			const bytes = await png(9);
			const wrong = await client().upload<Err>(bytes, { expected_hash: `blake3:${'0'.repeat(64)}` });
			expect(wrong.status).toBe(409);
			expect(wrong.body.error.code).toBe('hash_mismatch');
			const right = await client().upload<Asset>(bytes);
			const again = await v2Client(bed.emu, mode).upload<Asset>(bytes, { expected_hash: right.body.hash!, file_path: 'b.png' });
			expect(again.status).toBe(200);
		});

		it('carries hash null until the server computed it (fault)', async () => {
			await faults(bed.emu, { v2HashDelayMs: 2000 });
			const res = await client().upload<Asset>(await png(10));
			expect(res.body.hash).toBeNull();
			await control(bed.emu, '/clock/advance', { ms: 2000 });
			expect((await client().get<Asset>(`/assets/${res.body.id}`)).body.hash).toMatch(/^blake3:/);
		});

		it('answers HEAD /assets/by-hash/{hash} 200 for my blob and 404 otherwise', async () => {
			const mine = (await client().upload<Asset>(await png(11))).body;
			const theirs = (await other().upload<Asset>(await png(12))).body;
			expect((await client().raw(`/assets/by-hash/${mine.hash}`, { method: 'HEAD' })).status).toBe(200);
			expect((await client().raw(`/assets/by-hash/${theirs.hash}`, { method: 'HEAD' })).status).toBe(404);
			expect((await client().raw(`/assets/by-hash/blake3:${'a'.repeat(64)}`, { method: 'HEAD' })).status).toBe(404);
		});

		it('returns a fresh url on every read', async () => {
			const { id } = (await client().upload<Asset>(await png(13))).body;
			const a = (await client().get<Asset>(`/assets/${id}`)).body.url;
			const b = (await client().get<Asset>(`/assets/${id}`)).body.url;
			expect(a).not.toBe(b);
			expect((await fetch(b!)).status).toBe(200);
		});

		it('redirects content with 302 to the storage origin; following with the key is recorded as a leak', async () => {
			const bytes = await png(14);
			const { id } = (await client().upload<Asset>(bytes)).body;
			const res = await client().raw(`/assets/${id}/content`);
			expect(res.status).toBe(302);
			const location = res.headers.get('location')!;
			expect(new URL(location).origin).toBe(bed.emu.urls.storage);
			expect(new Uint8Array(await (await fetch(location)).arrayBuffer())).toEqual(bytes);
			expect((await fetch(location, { headers: client().auth })).status).toBe(403);
			const leaks = (await (await fetch(`${bed.emu.urls.storage}/__emulator/leaks`)).json()) as { leaks: Array<{ carried: string[] }> };
			expect(leaks.leaks.at(-1)!.carried).toContain('authorization');
		});

		it('counts the file bytes each upload sends, per surface (the counters tests read); from-hash sends none', async () => {
			const bytes = await png(17);
			const before = bed.emu.state.counters.uploadBytes[mode] ?? 0;
			const { hash } = (await client().upload<Asset>(bytes)).body;
			expect(bed.emu.state.counters.uploadBytes[mode]).toBe(before + bytes.length);
			expect((await client().post<Asset>('/assets/from-hash', { hash, file_path: 'again.png' })).status).toBe(201);
			expect(bed.emu.state.counters.uploadBytes[mode]).toBe(before + bytes.length);
		});

		it('mints from-hash: 201 new, 200 when the same reference exists, 404 blob_not_found otherwise', async () => {
			const { hash } = (await client().upload<Asset>(await png(15))).body;
			const minted = await client().post<Asset>('/assets/from-hash', { hash, file_path: 'copy.png' });
			expect(minted.status).toBe(201);
			expect(minted.body.created_new).toBe(true);
			const same = await client().post<Asset>('/assets/from-hash', { hash, file_path: 'copy.png' });
			expect(same.status).toBe(200);
			expect(same.body.id).toBe(minted.body.id);
			const theirs = (await other().upload<Asset>(await png(16))).body;
			for (const h of [`blake3:${'b'.repeat(64)}`, theirs.hash]) {
				const miss = await client().post<Err>('/assets/from-hash', { hash: h });
				expect(miss.status).toBe(404);
				expect(miss.body.error.code).toBe('blob_not_found');
			}
		});
	});

	describe('event stream', () => {
		it('sends on connect the status, the latest progress and the latest preview', async () => {
			await stepMs(bed.emu, 40);
			const { body } = await client().submit<JobBody>(smallJob(30));
			await pollJob(client(), body, (j) => (j.progress?.['step'] as number | null) != null);
			await sleep(100);
			const read = await client().events(body.urls.events, { until: (e) => e.length >= 3 });
			expect(read.events.slice(0, 3).map((e) => e.event)).toEqual(['status', 'progress', 'preview']);
			expect(read.events[0]!.data).toEqual({ status: 'running' });
			expect(read.events[2]!.data).toMatchObject({
				node_id: '3',
				content_type: 'image/jpeg',
				data_base64: expect.stringMatching(/^\/9j\//)
			});
		});

		it('throttles progress and previews to about two a second', async () => {
			await stepMs(bed.emu, 20);
			const { body } = await client().submit<JobBody>(smallJob(100));
			const read = await client().events(body.urls.events, { timeoutMs: 15_000 });
			// Counted against the stream's span (arrival gaps bunch up when the reader is busy).
			const seconds = (read.events.at(-1)!.at - read.events[0]!.at) / 1000;
			for (const kind of ['progress', 'preview']) {
				const n = read.events.filter((e) => e.event === kind).length;
				expect(n).toBeGreaterThan(0);
				expect(n).toBeLessThanOrEqual(Math.ceil(seconds * 2) + 2);
			}
		});

		it('sends output events as outputs commit and log events, ends after the terminal status, with no ids', async () => {
			const partner = partnerNodes as ApiPrompt;
			const key = mode === 'managed' ? bed.emu.apiKey : bed.emu.deploymentKey;
			const { body, status } = await client().submit<JobBody>(partner, { extra_data: { api_key_comfy_org: key } });
			expect(status).toBe(201);
			const read = await client().events(body.urls.events, { timeoutMs: 15_000 });
			const names = read.events.map((e) => e.event);
			expect(names).toContain('log');
			expect(names.filter((n) => n === 'output').length).toBeGreaterThan(0);
			expect(read.events.at(-1)).toMatchObject({ event: 'status', data: { status: 'succeeded' } });
			expect(names.lastIndexOf('output')).toBeLessThan(names.length - 1);
			expect(read.ended).toBe('closed');
			expect(read.events.every((e) => e.id === undefined)).toBe(true);
			expect(read.raw).not.toMatch(/^(id|retry):/m);
		});

		it('answers 404 for an unknown job', async () => {
			expect((await client().events('/api/v2/jobs/job_nope/events')).status).toBe(404);
		});

		it('drops a stream mid-job (fault) while the job runs on; a new stream re-syncs', async () => {
			await stepMs(bed.emu, 20);
			const { body } = await client().submit<JobBody>(smallJob(60));
			const reading = client().events(body.urls.events, { timeoutMs: 15_000 });
			await sleep(200);
			await control(bed.emu, '/v2/streams/drop');
			const dropped = await reading;
			expect(dropped.ended).toBe('broken');
			expect(dropped.events.some((e) => e.data['status'] === 'succeeded')).toBe(false);
			const again = await client().events(body.urls.events, { timeoutMs: 15_000 });
			expect(again.events[0]!.event).toBe('status');
			expect(again.events.at(-1)!.data['status']).toBe('succeeded');
		});

		it('cuts every new stream after N frames when asked (fault)', async () => {
			await stepMs(bed.emu, 20);
			await faults(bed.emu, { v2StreamDropAfterFrames: 2 });
			const { body } = await client().submit<JobBody>(smallJob(40));
			const read = await client().events(body.urls.events, { timeoutMs: 15_000 });
			expect(read.events).toHaveLength(2);
			expect(read.ended).toBe('broken');
		});

		it('stalls a stream (no bytes) for the chosen time, then goes on', async () => {
			await stepMs(bed.emu, 20);
			const { body } = await client().submit<JobBody>(smallJob(50));
			let stallAt = 0;
			const reading = client().events(body.urls.events, { timeoutMs: 15_000 });
			await sleep(150);
			stallAt = performance.now();
			await control(bed.emu, '/v2/streams/stall', { ms: 700 });
			const read = await reading;
			expect(longestGapSince(read.events, stallAt)).toBeGreaterThan(600);
			expect(read.events.at(-1)!.data['status']).toBe('succeeded');
		});

		it('refuses a stream past the cap with 429 too_many_streams and Retry-After (fault)', async () => {
			await stepMs(bed.emu, 50);
			await faults(bed.emu, { v2StreamCap: 1 });
			const { body } = await client().submit<JobBody>(smallJob(40));
			const first = client().events(body.urls.events, { timeoutMs: 15_000, until: (e) => e.length >= 1 });
			const opened = client().events(body.urls.events, { timeoutMs: 15_000 });
			const results = await Promise.all([first, opened]);
			const refused = results.find((r) => r.status === 429)!;
			expect((refused.body as Err).error.code).toBe('too_many_streams');
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		});
	});

	it('exposes Idempotency-Replayed and Retry-After to a browser on another origin', async () => {
		const res = await client().raw('/jobs/job_x', { headers: { Origin: 'http://localhost:5173' } });
		const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
		expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
		for (const h of ['idempotency-replayed', 'retry-after', 'content-range']) expect(exposed).toContain(h);
	});
});
