/**
 * Raw DEFLATE inflation that counts what it produces as it goes: the compressed bytes are fed a
 * small slice at a time, so a bomb is stopped after at most one slice's worth of output past the
 * cap (DEFLATE expands at most about 1032 times), not after it has filled memory.
 */
import { Inflate } from 'fflate';

/** Compressed bytes handed to the inflater at once: bounds the output of one step to about 4 MiB. */
const SLICE = 4096;

export type InflateOutcome =
	{ ok: true; bytes: Uint8Array } | { ok: false; kind: 'too-large'; produced: number } | { ok: false; kind: 'corrupt'; reason: string };

/** Inflates `data` unless it expands past `cap` bytes. */
export function inflateRawCapped(data: Uint8Array, cap: number): InflateOutcome {
	const parts: Uint8Array[] = [];
	let produced = 0;
	let over = false;
	let ended = false;
	const inflater = new Inflate((chunk, final) => {
		produced += chunk.length;
		if (produced > cap) over = true;
		else parts.push(chunk);
		if (final) ended = true;
	});
	try {
		for (let at = 0; at < data.length && !over; at += SLICE) {
			const end = Math.min(at + SLICE, data.length);
			inflater.push(data.subarray(at, end), end === data.length);
		}
		if (data.length === 0) inflater.push(new Uint8Array(0), true);
	} catch (error) {
		if (over) return { ok: false, kind: 'too-large', produced };
		return { ok: false, kind: 'corrupt', reason: error instanceof Error ? error.message : String(error) };
	}
	if (over) return { ok: false, kind: 'too-large', produced };
	if (!ended) return { ok: false, kind: 'corrupt', reason: 'the compressed data ends early' };
	return { ok: true, bytes: joined(parts, produced) };
}

export function joined(parts: readonly Uint8Array[], length = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
	if (parts.length === 1 && parts[0]!.length === length) return parts[0]!;
	const bytes = new Uint8Array(length);
	let at = 0;
	for (const part of parts) {
		bytes.set(part, at);
		at += part.length;
	}
	return bytes;
}
