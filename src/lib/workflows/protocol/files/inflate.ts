/**
 * zlib inflation with a hard output cap, streamed through the platform's DecompressionStream so a
 * small "bomb" is refused after about `cap` bytes instead of expanding to hundreds of megabytes.
 */

export type InflateResult =
	| { ok: true; bytes: Uint8Array }
	/** `produced`: the bytes the decompressor handed out before we stopped it (at most cap + one output chunk). */
	| { ok: false; kind: 'too-large'; produced: number }
	| { ok: false; kind: 'corrupt'; reason: string }
	| { ok: false; kind: 'aborted' };

export async function inflateCapped(data: Uint8Array, cap: number, signal: AbortSignal): Promise<InflateResult> {
	const stream = new DecompressionStream('deflate');
	const writer = stream.writable.getWriter();
	const reader = stream.readable.getReader();
	// Written in the background: the reader drives the pace, and stops it by cancelling. A write
	// failure (corrupt data, or our cancel) also surfaces on the reader, where it is handled.
	writer
		.write(data as Uint8Array<ArrayBuffer>)
		.then(() => writer.close())
		.catch(() => undefined);
	const parts: Uint8Array[] = [];
	let produced = 0;
	try {
		for (;;) {
			if (signal.aborted) {
				await reader.cancel().catch(() => undefined);
				return { ok: false, kind: 'aborted' };
			}
			const { done, value } = await reader.read();
			if (done) break;
			produced += value.length;
			if (produced > cap) {
				await reader.cancel().catch(() => undefined);
				return { ok: false, kind: 'too-large', produced };
			}
			parts.push(value);
		}
	} catch (error) {
		return { ok: false, kind: 'corrupt', reason: error instanceof Error ? error.message : String(error) };
	}
	const bytes = new Uint8Array(produced);
	let at = 0;
	for (const part of parts) {
		bytes.set(part, at);
		at += part.length;
	}
	return { ok: true, bytes };
}
