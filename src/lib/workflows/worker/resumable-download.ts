/**
 * Downloads a body that may be large (a video output) so a drop mid-body costs only what was not
 * yet received: the bytes that arrived are kept and the rest is asked for with `Range: bytes=N-`.
 * A server that ignores the range (200) sends the whole body again, which replaces what was kept;
 * one that refuses it (416, or the self-hosted proxy's 502 `upstream_error` for a range it cannot
 * serve) is asked for the whole content instead.
 */
import { backoffDelay, SOCKET_BACKOFF } from '../../core/rules/backoff';
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import type { GuardedResponse } from '../../core/worker/guarded-fetch';

/** One request: `from` is the first byte wanted (null: the whole content); chunks of a 2xx body go to `onChunk`. */
export type RangeGet = (from: number | null, onChunk: (chunk: Uint8Array) => void) => Promise<Result<GuardedResponse>>;

export interface ResumeOptions {
	/** Requests after the first that may follow a drop or a refused range. */
	maxResumes?: number;
	/** Waits before a resume (tests pass 0). */
	delayMs?: (attempt: number) => number;
	/** A non-2xx answer as an error (its envelope read by the caller's rules). */
	errorOf: (res: GuardedResponse) => AppError;
	signal?: AbortSignal;
}

/** The first byte and the total of a `Content-Range: bytes a-b/total` header. */
export function contentRange(header: string | null): { start: number; total: number | null } | null {
	const m = header ? /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header.trim()) : null;
	return m ? { start: Number(m[1]), total: m[2] === '*' ? null : Number(m[2]) } : null;
}

export async function downloadResuming(get: RangeGet, options: ResumeOptions): Promise<Result<Blob>> {
	const { maxResumes = 8, delayMs = (n) => backoffDelay(n, SOCKET_BACKOFF, Math.random()), errorOf } = options;
	let kept: Uint8Array[] = [];
	let have = 0;
	let rangesRefused = false;
	for (let attempt = 0; ; attempt++) {
		const from = have > 0 && !rangesRefused ? have : null;
		const chunks: Uint8Array[] = [];
		let got = 0;
		const res = await get(from, (chunk) => {
			chunks.push(chunk);
			got += chunk.length;
		});
		const status = res.ok ? res.value.status : res.error.status;
		// Where the chunks belong: a 206 continues what was kept, a 200 is the whole body from its start.
		const continues = status === 206 && from !== null && (!res.ok || contentRange(res.value.header('Content-Range'))?.start === from);
		if (continues) {
			kept.push(...chunks);
			have += got;
		} else if (status === 200 || status === 206) {
			kept = chunks;
			have = got;
			// A 206 that does not start where asked: keep nothing from it, ask for the whole.
			if (status === 206 && from !== null) {
				kept = [];
				have = 0;
				rangesRefused = true;
			}
		}
		if (res.ok) {
			const total = status === 206 ? (contentRange(res.value.header('Content-Range'))?.total ?? null) : null;
			if ((status === 200 || (status === 206 && have > 0)) && (total === null || have === total))
				return ok(new Blob(kept as BlobPart[], { type: res.value.header('Content-Type') ?? '' }));
			if (status !== 200 && status !== 206) {
				if (from === null || (status !== 416 && status !== 502)) return fail(errorOf(res.value));
				rangesRefused = true; // refused range: the whole content instead, at once
				kept = [];
				have = 0;
				continue;
			}
		} else if (res.error.kind === 'aborted' || res.error.kind === 'cancelled' || options.signal?.aborted) return res;
		if (attempt >= maxResumes)
			return res.ok ? fail(appError('network', 'The download kept stopping short: try again when the connection is steadier.')) : res;
		await new Promise((resolve) => setTimeout(resolve, delayMs(attempt + 1)));
	}
}
