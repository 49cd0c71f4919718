import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FrameType, type Frame } from './frames';

const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);

const samples: Frame[] = [
	{ kind: 'preview', mime: 'image/jpeg', image: jpeg },
	{ kind: 'preview', mime: 'image/png', image: png },
	{ kind: 'text', nodeId: '12', text: 'step 3/20 ✓ ünïcode' },
	{ kind: 'text', nodeId: '', text: '' },
	{
		kind: 'preview-with-metadata',
		mime: 'image/jpeg',
		image: jpeg,
		metadata: { node_id: '3', display_node_id: '3', real_node_id: '3', prompt_id: 'p-1', parent_node_id: null, image_type: 'image/jpeg' }
	}
];

describe('binary frames', () => {
	it.each(samples.map((s) => [s.kind, s] as const))('round-trips a %s frame', (_kind, frame) => {
		const decoded = decodeFrame(encodeFrame(frame));
		expect(decoded).toEqual({ ok: true, frame });
	});

	it('reads the image type of a type-1 frame at offset 4, not 0', () => {
		const bytes = encodeFrame({ kind: 'preview', mime: 'image/png', image: png });
		expect(Array.from(bytes.subarray(0, 8))).toEqual([0, 0, 0, 1, 0, 0, 0, 2]);
		const decoded = decodeFrame(bytes);
		expect(decoded.ok && decoded.frame.kind === 'preview' && decoded.frame.mime).toBe('image/png');
	});

	it('uses big-endian lengths for text frames', () => {
		const bytes = encodeFrame({ kind: 'text', nodeId: 'abc', text: 'hi' });
		expect(Array.from(bytes.subarray(0, 8))).toEqual([0, 0, 0, 3, 0, 0, 0, 3]);
	});

	it('decodes a frame that sits at an offset inside a larger buffer', () => {
		const frame = encodeFrame({ kind: 'text', nodeId: '7', text: 'x' });
		const big = new Uint8Array(frame.length + 5);
		big.set(frame, 5);
		expect(decodeFrame(big.subarray(5))).toEqual({ ok: true, frame: { kind: 'text', nodeId: '7', text: 'x' } });
	});

	it('reports truncation at every byte of every frame kind, never throws', () => {
		for (const sample of samples) {
			const bytes = encodeFrame(sample);
			const headerEnd =
				sample.kind === 'preview'
					? 8
					: bytes.length - (sample.kind === 'text' ? new TextEncoder().encode(sample.text).length : sample.image.length);
			for (let cut = 0; cut < headerEnd; cut++) {
				const result = decodeFrame(bytes.subarray(0, cut));
				expect(result.ok, `${sample.kind} cut at ${cut}`).toBe(false);
				if (!result.ok) expect(result.error.kind).toBe('truncated');
			}
		}
	});

	it('rejects unknown frame types and image types with a typed error', () => {
		const unknown = new Uint8Array([0, 0, 0, 9, 0, 0, 0, 0]);
		expect(decodeFrame(unknown)).toMatchObject({ ok: false, error: { kind: 'unknown-type', type: 9 } });
		const badImage = new Uint8Array([0, 0, 0, FrameType.PreviewImage, 0, 0, 0, 7, 1]);
		expect(decodeFrame(badImage)).toMatchObject({ ok: false, error: { kind: 'bad-image-type', imageType: 7 } });
	});

	it('rejects type-4 metadata that is not JSON or lacks the prompt id', () => {
		const meta = new TextEncoder().encode('{"node_id":"1"}');
		const bytes = new Uint8Array(8 + meta.length + jpeg.length);
		new DataView(bytes.buffer).setUint32(0, 4);
		new DataView(bytes.buffer).setUint32(4, meta.length);
		bytes.set(meta, 8);
		bytes.set(jpeg, 8 + meta.length);
		expect(decodeFrame(bytes)).toMatchObject({ ok: false, error: { kind: 'bad-metadata' } });
	});

	it('sniffs the image type of a type-4 frame when the metadata does not say', () => {
		const meta = new TextEncoder().encode(JSON.stringify({ node_id: '1', prompt_id: 'p' }));
		const bytes = new Uint8Array(8 + meta.length + png.length);
		new DataView(bytes.buffer).setUint32(0, 4);
		new DataView(bytes.buffer).setUint32(4, meta.length);
		bytes.set(meta, 8);
		bytes.set(png, 8 + meta.length);
		const result = decodeFrame(bytes);
		expect(result.ok && result.frame.kind === 'preview-with-metadata' && result.frame.mime).toBe('image/png');
	});

	it('rejects text frames whose bytes are not UTF-8', () => {
		const bytes = new Uint8Array([0, 0, 0, 3, 0, 0, 0, 1, 0x41, 0xc3]);
		expect(decodeFrame(bytes)).toMatchObject({ ok: false, error: { kind: 'bad-metadata' } });
	});
});
