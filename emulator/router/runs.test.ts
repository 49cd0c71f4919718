import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ROUTER_ERROR_TYPES, type RouterValidationErrorResponse } from '../../src/lib/models/protocol/router-api';
import { eventually, useRouterEmulator } from './test-helpers';
import { ERROR_STATUS } from './errors';
import { triggerFor } from './provider/triggers';
import { counterKey } from './idempotency';

const api = useRouterEmulator({ settings: { providerMs: 30 } });

const WS = 'ws:ws_demo';

/** A real video: an EBML header (1A 45 DF A3) whose doc type is "webm". */
const isWebm = (bytes: Buffer) =>
	bytes.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) && bytes.subarray(0, 64).includes('webm');
type ImageResult = {
	images: Array<{ url: string; width: number; height: number; content_type: string }>;
	seed: number;
	draft?: { url: string };
};

describe('synchronous runs', () => {
	it('returns the native JSON output with signed storage URLs, nosniff, spend headers and credits for an allowlisted provider', async () => {
		const res = await api.post('/v2/models/lumen/flux-1-pro', {
			prompt: 'a lighthouse',
			image_size: { width: 96, height: 64 },
			num_images: 2,
			seed: 7
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toContain('application/json');
		expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
		expect(res.headers.get('x-committed-spend-limit')).toBe('2000');
		expect(res.headers.get('x-committed-spend-current')).toBe('0');
		expect(res.headers.get('x-committed-spend-remaining')).toBe('2000');
		expect(res.headers.get('x-service-credits-used')).toMatch(/^\d+$/);
		expect(res.headers.get('idempotent-replayed')).toBeNull();
		const body = (await res.json()) as ImageResult;
		expect(body.seed).toBe(7);
		expect(body.images).toHaveLength(2);
		const url = new URL(body.images[0]!.url);
		expect(url.origin).toBe(api.emu.urls.storage);
		expect(url.searchParams.get('X-Goog-Expires')).toBe('86400');
		expect(url.searchParams.get('X-Goog-Date')).toMatch(/^\d{8}T\d{6}Z$/);
		const image = await fetch(url);
		expect(image.status).toBe(200);
		expect(image.headers.get('content-type')).toBe('image/jpeg');
		const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
		expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 96, 64]);
		expect(body.draft?.url).toContain(api.emu.urls.storage);
		const plain = await api.post('/v2/models/quill/quill-3', { prompt: 'hello' });
		expect(plain.headers.get('x-service-credits-used')).toBeNull();
	});

	it('is deterministic for a given input, signed URLs aside', async () => {
		const input = { prompt: 'same input', image_size: 'square', num_inference_steps: 4 };
		const strip = (r: ImageResult): unknown => ({ ...r, images: r.images.map((i) => ({ ...i, url: i.url.split('?')[0] })) });
		const a = (await (await api.post('/v2/models/lumen/flux-2', input)).json()) as ImageResult;
		const b = (await (await api.post('/v2/models/lumen/flux-2', input)).json()) as ImageResult;
		expect(strip(a)).toEqual(strip(b));
		const other = (await (await api.post('/v2/models/lumen/flux-2', { ...input, prompt: 'other input' })).json()) as ImageResult;
		expect(other.seed).not.toBe(a.seed);
		const raw1 = Buffer.from(await (await api.post('/v2/models/stratus/sd-3', { prompt: 'x', aspect_ratio: '16:9' })).arrayBuffer());
		const raw2 = Buffer.from(await (await api.post('/v2/models/stratus/sd-3', { prompt: 'x', aspect_ratio: '16:9' })).arrayBuffer());
		expect(raw1.equals(raw2)).toBe(true);
	});

	it('returns raw image/png and audio/wav bodies for raw-byte providers', async () => {
		const png = await api.post('/v2/models/stratus/sd-3-large', { prompt: 'a fox', aspect_ratio: '16:9' });
		expect(png.status).toBe(200);
		expect(png.headers.get('content-type')).toBe('image/png');
		expect(png.headers.get('x-content-type-options')).toBe('nosniff');
		const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
		expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 288]);
		const wav = await api.post('/v2/models/sonora/speech-1', { text: 'Your run has finished.', voice: 'sage' });
		expect(wav.headers.get('content-type')).toBe('audio/wav');
		const bytes = Buffer.from(await wav.arrayBuffer());
		expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
		expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
	});

	it('returns an LLM JSON output, parsed when JSON was asked for', async () => {
		const res = await api.post('/v2/models/quill/quill-4-json', {
			prompt: 'three colours please',
			response_format: { type: 'json_object' }
		});
		const body = (await res.json()) as { output: string; json: unknown; usage: unknown };
		expect(JSON.parse(body.output)).toEqual(body.json);
	});

	it('returns response.videos[] inline for short clips and as a signed gcsUri for long ones', async () => {
		const short = (await (await api.post('/v2/models/vertex/veo-3', { prompt: 'waves', durationSeconds: 5 })).json()) as {
			response: { videos: Array<{ bytesBase64Encoded?: string; gcsUri?: string }> };
		};
		const inline = Buffer.from(short.response.videos[0]!.bytesBase64Encoded!, 'base64');
		expect(isWebm(inline)).toBe(true);
		const long = (await (await api.post('/v2/models/vertex/veo-3', { prompt: 'waves', durationSeconds: 8 })).json()) as {
			response: { videos: Array<{ gcsUri?: string }> };
		};
		const gcs = new URL(long.response.videos[0]!.gcsUri!);
		expect(gcs.searchParams.get('X-Goog-Expires')).toBe('86400');
		expect((await fetch(gcs)).status).toBe(200);
	});

	it('signs each family with its lifetime: 12 h for video family B, last frames copied for family A', async () => {
		const tidal = (await (await api.post('/v2/models/tidal/wave-1-t2v', { prompt: 'rain' })).json()) as { video: { url: string } };
		expect(new URL(tidal.video.url).searchParams.get('X-Goog-Expires')).toBe('43200');
		const kestrel = (await (await api.post('/v2/models/kestrel/kestrel-v1-text-to-video', { prompt: 'rain' })).json()) as {
			video: { url: string };
			last_frame: { url: string };
		};
		expect(new URL(kestrel.video.url).origin).toBe(api.emu.urls.storage);
		expect(new URL(kestrel.last_frame.url).searchParams.get('X-Goog-Expires')).toBe('86400');
		const clip = await fetch(kestrel.video.url);
		expect(clip.headers.get('content-type')).toBe('video/webm');
		expect(isWebm(Buffer.from(await clip.arrayBuffer()))).toBe(true);
	});

	it('leaves some assets on a provider CDN that sends no CORS headers', async () => {
		const res = (await (
			await api.post('/v2/models/kestrel/kolor-image', { prompt: 'a kite', image_size: 'square' })
		).json()) as ImageResult;
		const url = new URL(res.images[0]!.url);
		expect(url.origin).toBe(api.emu.urls.cdn);
		const expires = Number(url.searchParams.get('Expires'));
		expect(expires * 1000).toBeGreaterThan(Date.now() + 3500_000);
		expect(expires * 1000).toBeLessThan(Date.now() + 3700_000);
		const asset = await fetch(url, { headers: { Origin: 'http://app.test' } });
		expect(asset.status).toBe(200);
		expect(asset.headers.get('access-control-allow-origin')).toBeNull();
		const preflight = await fetch(url, {
			method: 'OPTIONS',
			headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET' }
		});
		expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
		const tampered = await fetch(url.toString().replace('Expires=', 'Expires=1'));
		expect(tampered.status).toBe(403);
		const withKey = await fetch(url, { headers: { 'X-API-Key': api.emu.apiKey } });
		expect(withKey.status).toBe(403);
		const leaks = (await (await fetch(`${api.emu.urls.cdn}/__emulator/leaks`)).json()) as { leaks: Array<{ carried: string[] }> };
		expect(leaks.leaks.at(-1)?.carried).toContain('x-api-key');
	});

	it('keeps the provider reference when copying an asset fails, and still succeeds and charges', async () => {
		await api.control('/router/faults', { assetCopyFails: true });
		const res = await api.post(
			'/v2/models/lumen/flux-1',
			{ prompt: 'copy fails', image_size: 'square' },
			{ 'Idempotency-Key': 'copy-fails' }
		);
		expect(res.status).toBe(200);
		const body = (await res.json()) as ImageResult;
		expect(new URL(body.images[0]!.url).origin).toBe(api.emu.urls.cdn);
		expect((await api.counters()).charges[counterKey(WS, 'copy-fails')]).toBe(1);
	});

	it('accepts any object for unauthored models, the provider itself may refuse with a 422 passed through', async () => {
		const ok = await api.post('/v2/models/openforge/community-anime', { prompt: 'a cat', anything: { goes: [1, 2] } });
		expect(ok.status).toBe(200);
		const refused = await api.post('/v2/models/openforge/community-anime', { text: 'no prompt' });
		expect(refused.status).toBe(422);
		const body = (await refused.json()) as RouterValidationErrorResponse;
		expect(body.detail[0]).toEqual({ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' });
		const raw = await api.post('/v2/models/openforge/pixel-art', { prompt: 'a tree' });
		expect(raw.headers.get('content-type')).toBe('image/png');
		const notObject = await api.post('/v2/models/openforge/community-anime', [1, 2]);
		expect(notObject.status).toBe(422);
	});
});

describe('validation before dispatch', () => {
	it('answers 422 with detail[] of loc, msg, type, ctx, input, and does not dispatch or bill', async () => {
		const res = await api.post(
			'/v2/models/lumen/flux-1-lora',
			{ num_inference_steps: 80, image_size: 'huge', loras: [{ path: 'not a url', scale: 5 }], surprise: true },
			{ 'Idempotency-Key': 'k-422' }
		);
		expect(res.status).toBe(422);
		expect(res.headers.get('x-service-error-type')).toBe('invalid_input');
		const { detail } = (await res.json()) as RouterValidationErrorResponse;
		const byLoc = new Map(detail.map((d) => [JSON.stringify(d.loc), d]));
		expect(byLoc.get('["body","prompt"]')).toMatchObject({ type: 'missing', msg: 'Field required' });
		expect(byLoc.get('["body","prompt"]')).not.toHaveProperty('input');
		expect(byLoc.get('["body","num_inference_steps"]')).toMatchObject({ type: 'less_than_equal', ctx: { le: 50 }, input: 80 });
		expect(byLoc.get('["body","loras",0,"scale"]')).toMatchObject({ type: 'less_than_equal', ctx: { le: 4 }, input: 5 });
		expect(byLoc.get('["body","loras",0,"path"]')).toMatchObject({ type: 'url_parsing', input: 'not a url' });
		expect(byLoc.get('["body","image_size"]')).toMatchObject({ input: 'huge' });
		expect(byLoc.get('["body","surprise"]')).toMatchObject({ type: 'extra_forbidden' });
		for (const d of detail) expect(d.loc[0]).toBe('body');
		const counters = await api.counters();
		expect(counters.dispatches[counterKey(WS, 'k-422')]).toBeUndefined();
		// The refusal released the key: the same key with a valid body runs.
		const ok = await api.post('/v2/models/lumen/flux-1-lora', { prompt: 'fixed', image_size: 'square' }, { 'Idempotency-Key': 'k-422' });
		expect(ok.status).toBe(200);
	});

	it('validates 3.0 documents with nullable and exclusive bounds, and oneOf variants', async () => {
		expect((await api.post('/v2/models/stratus/sd-3', { prompt: 'x', seed: null, negative_prompt: null })).status).toBe(200);
		const zero = await api.post('/v2/models/stratus/sd-3', { prompt: 'x', cfg_scale: 0 });
		expect(zero.status).toBe(422);
		expect(((await zero.json()) as RouterValidationErrorResponse).detail[0]).toMatchObject({
			loc: ['body', 'cfg_scale'],
			type: 'greater_than',
			ctx: { gt: 0 }
		});
		const both = await api.post('/v2/models/vertex/veo-2', { prompt: 'x', image: { gcsUri: 'gs://b/o', bytesBase64Encoded: 'AA==' } });
		expect(both.status).toBe(422);
		expect((await api.post('/v2/models/vertex/veo-2', { prompt: 'x', durationSeconds: 5, image: { gcsUri: 'gs://b/o' } })).status).toBe(
			200
		);
		const voice = await api.post('/v2/models/sonora/speech-2', { text: 'hi', voice: 'robot' });
		expect(((await voice.json()) as RouterValidationErrorResponse).detail[0]).toEqual({
			loc: ['body', 'voice'],
			msg: "Input should be 'alloy', 'ember', 'juniper', 'sage' or 'river'",
			type: 'literal_error',
			ctx: { expected: "'alloy', 'ember', 'juniper', 'sage' or 'river'" },
			input: 'robot'
		});
		const wrongType = await api.post('/v2/models/sonora/speech-2', { text: 5 });
		expect(((await wrongType.json()) as RouterValidationErrorResponse).detail[0]).toMatchObject({
			loc: ['body', 'text'],
			type: 'string_type',
			input: 5
		});
	});

	it('answers 400 invalid_input for malformed requests and 413 for a body too large', async () => {
		const cases: Array<[RequestInit, number]> = [
			[{ method: 'POST', headers: api.headers({ 'Content-Type': 'application/json' }), body: '{"prompt": ' }, 400],
			[{ method: 'POST', headers: api.headers() }, 400],
			[{ method: 'POST', headers: api.headers({ 'Content-Type': 'text/plain' }), body: 'prompt' }, 400],
			[
				{
					method: 'POST',
					headers: api.headers({ 'Content-Type': 'application/json', 'Idempotency-Key': 'k'.repeat(256) }),
					body: '{"prompt":"x"}'
				},
				400
			],
			[
				{
					method: 'POST',
					headers: api.headers({ 'Content-Type': 'application/json' }),
					body: JSON.stringify({ prompt: 'x'.repeat(11 * 1024 * 1024) })
				},
				413
			]
		];
		const badUrl = await fetch(`${api.base}/v2/models/lumen/%E0%A4%A`, { headers: api.headers({ Origin: 'http://app.test' }) });
		expect([badUrl.status, badUrl.headers.get('x-service-error-type')]).toEqual([400, 'invalid_input']);
		expect(badUrl.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
		expect(badUrl.headers.get('access-control-allow-origin')).toBe('http://app.test');
		for (const [init, status] of cases) {
			const res = await fetch(`${api.base}/v2/models/lumen/flux-1`, init);
			expect(res.status).toBe(status);
			expect(res.headers.get('x-service-error-type')).toBe('invalid_input');
			expect(((await res.json()) as { error_type: string }).error_type).toBe('invalid_input');
		}
	});
});

describe('error types', () => {
	it('reaches every error type of the spec by input, with the status of the emulator table', async () => {
		for (const type of ROUTER_ERROR_TYPES) {
			const res = await api.post('/v2/models/lumen/flux-1', { prompt: `x ${triggerFor(type)}`, image_size: 'square' });
			expect([type, res.status]).toEqual([type, ERROR_STATUS[type]]);
			expect(res.headers.get('x-service-error-type')).toBe(type);
			expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
			expect(await res.json()).toMatchObject({ error_type: type, detail: expect.any(String) });
		}
	});

	it('sends X-Service-Upstream-Status on provider failures and Retry-After on 504', async () => {
		expect((await api.post('/v2/models/lumen/flux-1', { prompt: 'a cat', negative_prompt: 'nsfw, blurry' })).status).toBe(200);
		const policy = await api.post('/v2/models/lumen/flux-1', { prompt: 'something NSFW' });
		expect([policy.status, policy.headers.get('x-service-upstream-status')]).toEqual([400, '400']);
		const failed = await api.post('/v2/models/lumen/flux-1', { prompt: triggerFor('provider_error') });
		expect([failed.status, failed.headers.get('x-service-upstream-status')]).toEqual([502, '500']);
		const timeout = await api.post('/v2/models/lumen/flux-1', { prompt: triggerFor('provider_timeout') });
		expect([timeout.status, timeout.headers.get('x-service-upstream-status')]).toEqual([504, '504']);
		expect(Number(timeout.headers.get('retry-after'))).toBeGreaterThan(0);
		const unknown = await api.post('/v2/models/lumen/flux-1', { prompt: triggerFor('quota_frozen') });
		expect(await unknown.json()).toMatchObject({ error_type: 'quota_frozen' });
	});

	it('charges a content-policy refusal unless the model says "no"', async () => {
		await api.post('/v2/models/lumen/flux-1', { prompt: 'nsfw' }, { 'Idempotency-Key': 'cp-no' });
		await api.post('/v2/models/stratus/sd-3', { prompt: 'nsfw' }, { 'Idempotency-Key': 'cp-yes' });
		await api.post('/v2/models/prism/prism-image', { prompt: 'nsfw' }, { 'Idempotency-Key': 'cp-unknown' });
		const c = await api.counters();
		expect(c.dispatches[counterKey(WS, 'cp-no')]).toBe(1);
		expect(c.charges[counterKey(WS, 'cp-no')]).toBeUndefined();
		expect(c.charges[counterKey(WS, 'cp-yes')]).toBe(1);
		expect(c.charges[counterKey(WS, 'cp-unknown')]).toBe(1);
	});

	it('refuses before dispatch by scenario and fault: 402, 429 rate_limited, 503, an unseen error type, 403, 404', async () => {
		await api.control('/scenario', { name: 'no-credits' });
		const credits = await api.post('/v2/models/lumen/flux-1', { prompt: 'x' });
		expect([credits.status, credits.headers.get('x-service-error-type')]).toEqual([402, 'insufficient_credits']);
		await api.control('/scenario', { name: 'default' });
		await api.control('/router/faults', { rateLimited: true });
		const limited = await api.post('/v2/models/lumen/flux-1', { prompt: 'x' });
		expect([limited.status, limited.headers.get('x-service-error-type')]).toEqual([429, 'rate_limited']);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		await api.control('/router/faults', { rateLimited: false, runsUnavailable: true });
		const down = await api.post('/v2/models/lumen/flux-1', { prompt: 'x' });
		expect([down.status, down.headers.get('x-service-error-type')]).toEqual([503, 'service_unavailable']);
		await api.control('/router/faults', { runsUnavailable: false, unknownErrorType: 'workspace_frozen', unknownErrorStatus: 423 });
		const unseen = await api.post('/v2/models/lumen/flux-1', { prompt: 'x' });
		expect([unseen.status, unseen.headers.get('x-service-error-type')]).toEqual([423, 'workspace_frozen']);
		await api.control('/router/faults/clear');
		expect((await api.post('/v2/models/atelier-enterprise/studio-image', { prompt: 'x' })).status).toBe(403);
		expect((await api.post('/v2/models/lumen/none', { prompt: 'x' })).status).toBe(404);
		expect((await api.counters()).dispatches).toEqual({});
	});

	it('answers 429 with the spend headers when the ceiling or the in-flight limit would be passed', async () => {
		// Each first call is held at the provider, so it is in flight when the next one asks.
		await api.control('/router/settings', { holdProvider: {}, spendLimitCents: 100 });
		const first = api.post('/v2/models/kestrel/kestrel-v1-text-to-video', { prompt: 'a' });
		await api.untilHeld();
		const refused = await api.post('/v2/models/kestrel/kestrel-v2-text-to-video', { prompt: 'b' });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('x-service-error-type')).toBe('concurrency_limit_exceeded');
		expect(refused.headers.get('x-committed-spend-limit')).toBe('100');
		const current = Number(refused.headers.get('x-committed-spend-current'));
		expect(current).toBeGreaterThan(0);
		expect(Number(refused.headers.get('x-committed-spend-remaining'))).toBe(Math.max(0, 100 - current));
		await api.control('/router/release');
		expect((await first).status).toBe(200);
		await api.control('/router/settings', { spendLimitCents: 2000, inFlightLimit: 1 });
		const one = api.post('/v2/models/quill/quill-3', { prompt: 'a' });
		await api.untilHeld();
		const two = await api.post('/v2/models/quill/quill-3', { prompt: 'b' });
		expect([two.status, two.headers.get('x-service-error-type')]).toEqual([429, 'concurrency_limit_exceeded']);
		expect(two.headers.get('x-committed-spend-limit')).toBe('2000');
		await api.control('/router/release');
		expect((await one).status).toBe(200);
	});

	it('answers 504 deadline_exceeded with Retry-After when a call is held past the deadline, and the run still completes', async () => {
		await api.control('/router/settings', { holdProvider: {}, syncHoldMs: 50 });
		const res = await api.post('/v2/models/lumen/flux-1', { prompt: 'slow' }, { 'Idempotency-Key': 'held' });
		expect(res.status).toBe(504);
		expect(res.headers.get('x-service-error-type')).toBe('deadline_exceeded');
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(await api.held()).toBe(1);
		await api.control('/router/settings', { holdProvider: null, syncHoldMs: 60_000 });
		// The run goes on past the 504: once charged, its key's record holds the result.
		await eventually(async () => ((await api.counters()).charges[counterKey(WS, 'held')] === 1 ? true : undefined));
		const retry = await api.post('/v2/models/lumen/flux-1', { prompt: 'slow' }, { 'Idempotency-Key': 'held' });
		expect(retry.status).toBe(200);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		const c = await api.counters();
		expect([c.dispatches[counterKey(WS, 'held')], c.charges[counterKey(WS, 'held')]]).toEqual([1, 1]);
	});

	it('can send error bodies as an HTML proxy page, truncated JSON or plain text, keeping status and request id', async () => {
		for (const mode of ['html', 'truncated', 'text'] as const) {
			await api.control('/router/faults', { errorBody: mode });
			const res = await api.get('/v2/models/lumen/none');
			expect(res.status).toBe(404);
			expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
			const text = await res.text();
			expect(() => JSON.parse(text)).toThrow();
			if (mode === 'html') expect(text).toContain('<html>');
		}
		await api.control('/router/faults/clear');
		expect((await (await api.get('/v2/models/lumen/none')).json()) as object).toMatchObject({ error_type: 'model_not_found' });
	});
});
