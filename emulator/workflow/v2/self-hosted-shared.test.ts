/**
 * The contract's rules where the self-hosted proxy agrees with it: the same checks as modes.test.ts,
 * run against the proxy's origin (no credential, UUID ids, ComfyUI's node_errors).
 */
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { control } from '../test-support';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { assetRef, loadAssetJob, png, smallJob, twoOutputJob, UI_FORMAT_EXPORT } from './fixtures';
import { faults, pollJob, stepMs, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();
const proxy = () => v2Client(bed.emu, 'self-hosted');
type Err = { error: { code: string } };
type Asset = { id: string; hash: string | null; url: string | null };

describe('self-hosted proxy: rules it shares with the contract', () => {
	it.each([
		['webhook_url', { webhook_url: 'https://h.example' }],
		['inputs', { inputs: {} }]
	])('rejects the reserved field %s with 422', async (_name, extra) => {
		expect((await proxy().submit(smallJob(), extra)).status).toBe(422);
	});

	it('answers 422 workflow_format_ui for a UI-format export', async () => {
		expect((await proxy().submit<Err>(UI_FORMAT_EXPORT)).body.error.code).toBe('workflow_format_ui');
	});

	it('resolves core/ASSET references, and answers 422 missing_asset for unknown, not-ready or not-its-own ones', async () => {
		const mine = (await proxy().upload<Asset>(await png(1))).body;
		const ok = await proxy().submit<JobBody>(loadAssetJob(assetRef(mine.id)));
		expect((await pollJob(proxy(), ok.body, terminal)).status).toBe('succeeded');
		const managed = (await v2Client(bed.emu, 'managed').upload<Asset>(await png(2))).body;
		await faults(bed.emu, { v2ScanMs: 60_000 });
		const scanning = (await proxy().upload<Asset>(await png(3))).body;
		for (const id of ['00000000-0000-0000-0000-000000000000', managed.id, scanning.id]) {
			expect((await proxy().submit<Err>(loadAssetJob(assetRef(id)))).body.error.code).toBe('missing_asset');
		}
	});

	it('answers 429 queue_full with Retry-After (fault)', async () => {
		await faults(bed.emu, { v2QueueFull: true });
		const res = await proxy().submit<Err>(smallJob());
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('5');
	});

	it('checks expected_hash (409 hash_mismatch), carries hash null until computed, answers 202 while scanning', async () => {
		expect((await proxy().upload<Err>(await png(4), { expected_hash: `blake3:${'0'.repeat(64)}` })).body.error.code).toBe('hash_mismatch');
		await faults(bed.emu, { v2HashDelayMs: 1000, v2ScanMs: 1000 });
		const res = await proxy().upload<Asset>(await png(5));
		expect(res.status).toBe(202);
		expect(res.body.hash).toBeNull();
	});

	it('answers HEAD /assets/by-hash/{hash} 200 for its blob, 404 for one only another surface holds', async () => {
		const mine = (await proxy().upload<Asset>(await png(6))).body;
		const theirs = (await v2Client(bed.emu, 'deployment').upload<Asset>(await png(7))).body;
		expect((await proxy().raw(`/assets/by-hash/${mine.hash}`, { method: 'HEAD' })).status).toBe(200);
		expect((await proxy().raw(`/assets/by-hash/${theirs.hash}`, { method: 'HEAD' })).status).toBe(404);
		expect((await proxy().post<Err>('/assets/from-hash', { hash: theirs.hash })).body.error.code).toBe('blob_not_found');
	});

	it('fills outputs in while the job runs', async () => {
		await stepMs(bed.emu, 20);
		const { body } = await proxy().submit<JobBody>(twoOutputJob(3));
		const partial = await pollJob(proxy(), body, (j) => j.outputs.length > 0);
		expect(partial.status).toBe('running');
		expect((await pollJob(proxy(), body, terminal)).outputs).toHaveLength(2);
	});

	it('expires a job not finished by expires_at', async () => {
		await stepMs(bed.emu, 1000);
		const { body } = await proxy().submit<JobBody>(smallJob(50));
		await control(bed.emu, '/clock/advance', { ms: 24 * 3600 * 1000 });
		expect((await proxy().get<JobBody>(body.urls.self)).body.status).toBe('expired');
	});

	it('streams progress and previews throttled to about two a second, with no event ids', async () => {
		await stepMs(bed.emu, 20);
		const { body } = await proxy().submit<JobBody>(smallJob(100));
		const read = await proxy().events(body.urls.events, { timeoutMs: 15_000 });
		const seconds = (read.events.at(-1)!.at - read.events[0]!.at) / 1000;
		expect(read.events.filter((e) => e.event === 'progress').length).toBeLessThanOrEqual(Math.ceil(seconds * 2) + 2);
		expect(read.events.filter((e) => e.event === 'preview').length).toBeGreaterThan(0);
		expect(read.raw).not.toMatch(/^(id|retry):/m);
	});

	it('drops a stream mid-job and stalls one on demand (faults)', async () => {
		await stepMs(bed.emu, 20);
		const { body } = await proxy().submit<JobBody>(smallJob(80));
		const dropped = proxy().events(body.urls.events, { timeoutMs: 15_000 });
		await sleep(150);
		await control(bed.emu, '/v2/streams/drop');
		expect((await dropped).ended).toBe('broken');
		const stalled = proxy().events(body.urls.events, { timeoutMs: 15_000 });
		await sleep(100);
		const at = performance.now();
		await control(bed.emu, '/v2/streams/stall', { ms: 600 });
		const read = await stalled;
		expect(read.events.filter((e) => e.at > at)[0]!.at - at).toBeGreaterThan(500);
	});
});
