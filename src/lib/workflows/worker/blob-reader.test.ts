import { describe, expect, it } from 'vitest';
import { readBlob } from './blob-reader';

function numbered(size: number): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(size);
	for (let i = 0; i < size; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
	return out;
}

async function readAll(blob: Blob, options: Parameters<typeof readBlob>[2] = {}): Promise<{ bytes: Uint8Array; pieces: number }> {
	const parts: Uint8Array[] = [];
	await readBlob(blob, (piece) => parts.push(piece.slice()), options);
	const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		bytes.set(p, at);
		at += p.length;
	}
	return { bytes, pieces: parts.length };
}

/** A Blob whose stream is a plain (not byte) stream, as in engines without byte-stream Blobs. */
class PlainStreamBlob extends Blob {
	override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
		const bytes = this.arrayBuffer();
		return new ReadableStream({ start: async (c) => (c.enqueue(new Uint8Array(await bytes)), c.close()) });
	}
}

/** A Blob whose byte stream hands out `before` bytes and then never settles another read. */
class StallingBlob extends Blob {
	constructor(
		parts: BlobPart[],
		private readonly before: number
	) {
		super(parts);
	}
	override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
		const head = this.slice(0, this.before).arrayBuffer();
		let sent = false;
		return new ReadableStream({
			type: 'bytes',
			pull: async (c) => {
				if (sent) return new Promise<void>(() => undefined);
				sent = true;
				c.enqueue(new Uint8Array(await head));
			}
		}) as ReadableStream<Uint8Array<ArrayBuffer>>;
	}
}

describe('reading a Blob through one reused buffer', () => {
	it('hands over every byte in order, in pieces no larger than the buffer', async () => {
		const data = numbered(300_001);
		const { bytes, pieces } = await readAll(new Blob([data]), { bufferBytes: 65_536 });
		expect(bytes).toEqual(data);
		expect(pieces).toBeGreaterThanOrEqual(5);
	});

	it('reads an empty Blob as nothing', async () => {
		expect((await readAll(new Blob([]))).bytes.length).toBe(0);
	});

	it('falls back to slices where the Blob stream is not a byte stream', async () => {
		const data = numbered(100_000);
		const { bytes, pieces } = await readAll(new PlainStreamBlob([data]), { bufferBytes: 30_000 });
		expect(bytes).toEqual(data);
		expect(pieces).toBe(4);
	});

	it('goes on by slices from where a stalled stream stopped, losing and repeating nothing', async () => {
		const data = numbered(200_000);
		const { bytes } = await readAll(new StallingBlob([data], 50_000), { bufferBytes: 65_536, stallMs: 50 });
		expect(bytes).toEqual(data);
	});

	it('stops with an AbortError when cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(readAll(new Blob([numbered(10)]), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
	});
});
