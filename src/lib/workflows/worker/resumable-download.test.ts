import { describe, expect, it } from 'vitest';
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { GuardedResponse } from '../../core/worker/guarded-fetch';
import { contentRange, downloadResuming, type RangeGet } from './resumable-download';

const BODY = new Uint8Array(Array.from({ length: 100 }, (_, i) => i));

function response(status: number, headers: Record<string, string> = {}, body = ''): GuardedResponse {
	const h = new Headers(headers);
	return { status, header: (n) => h.get(n), body };
}

/**
 * A server of BODY: `drops[i]` cuts the i-th answer after that many bytes; `ranges` says how it treats
 * a Range (`honour`: 206; `ignore`: 200 with the whole body; `refuse`: 502 upstream_error, as the proxy).
 */
function server(drops: number[], ranges: 'honour' | 'ignore' | 'refuse', asked: Array<number | null>): RangeGet {
	return async (from, onChunk): Promise<Result<GuardedResponse>> => {
		asked.push(from);
		const cut = drops[asked.length - 1];
		if (from !== null && ranges === 'refuse')
			return ok(response(502, {}, '{"error":{"code":"upstream_error","message":"x","details":null}}'));
		const start = from !== null && ranges === 'honour' ? from : 0;
		const status = from !== null && ranges === 'honour' ? 206 : 200;
		const part = BODY.subarray(start, cut === undefined ? BODY.length : Math.min(BODY.length, start + cut));
		for (let i = 0; i < part.length; i += 7) onChunk(part.subarray(i, i + 7));
		if (cut !== undefined) return fail(appError('network', 'The connection dropped while the answer was arriving.', { status }));
		return ok(
			response(status, {
				'Content-Type': 'video/mp4',
				...(status === 206 ? { 'Content-Range': `bytes ${start}-${BODY.length - 1}/${BODY.length}` } : {})
			})
		);
	};
}

const errorOf = (res: GuardedResponse) => appError('server', `HTTP ${res.status}`, { status: res.status });

async function bytesOf(result: Result<Blob>): Promise<Uint8Array> {
	if (!result.ok) throw new Error(result.error.message);
	return new Uint8Array(await result.value.arrayBuffer());
}

describe('a large output downloaded across drops', () => {
	it.each([
		{ name: 'resumes from the byte it reached, with Range', drops: [30, 25], ranges: 'honour', asked: [null, 30, 55] },
		{ name: 'takes the whole body again where a range is ignored (200)', drops: [30], ranges: 'ignore', asked: [null, 30] },
		{
			name: 'fetches the whole content where a range is refused (the proxy’s 502)',
			drops: [30],
			ranges: 'refuse',
			asked: [null, 30, null]
		},
		{ name: 'needs no range without a drop', drops: [], ranges: 'honour', asked: [null] }
	] as const)('$name', async ({ drops, ranges, asked }) => {
		const seen: Array<number | null> = [];
		const result = await downloadResuming(server([...drops], ranges, seen), { errorOf, delayMs: () => 0 });
		expect(await bytesOf(result)).toEqual(BODY);
		expect(result.ok && result.value.type).toBe('video/mp4');
		expect(seen).toEqual(asked);
	});

	it('gives up after its resumes, with the drop as the error', async () => {
		const seen: Array<number | null> = [];
		const result = await downloadResuming(server([5, 5, 5, 5], 'honour', seen), { errorOf, delayMs: () => 0, maxResumes: 2 });
		expect(result.ok).toBe(false);
		expect(seen).toEqual([null, 5, 10]);
	});

	it('reports an error answer as the caller reads it, without retrying', async () => {
		const seen: Array<number | null> = [];
		const get: RangeGet = async (from) => (seen.push(from), ok(response(404)));
		const result = await downloadResuming(get, { errorOf, delayMs: () => 0 });
		expect(!result.ok && result.error.message).toBe('HTTP 404');
		expect(seen).toEqual([null]);
	});

	it('reads Content-Range', () => {
		expect(contentRange('bytes 30-99/100')).toEqual({ start: 30, total: 100 });
		expect(contentRange('bytes 0-9/*')).toEqual({ start: 0, total: null });
		expect(contentRange(null)).toBeNull();
		expect(contentRange('items 1-2/3')).toBeNull();
	});
});
