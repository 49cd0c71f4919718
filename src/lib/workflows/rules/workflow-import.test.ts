import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { importWorkflowText, UI_FORMAT_HINT } from './workflow-import';
import { readPngText } from './png-chunks';
import { crc32 } from '../../core/protocol/crc32';
import textToImage from './examples/text-to-image.json';

function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	out.set(new TextEncoder().encode(type), 4);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

const IHDR = chunk('IHDR', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]));

function png(...chunks: Uint8Array[]): Uint8Array {
	const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), IHDR, ...chunks, chunk('IEND', new Uint8Array())];
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('importing workflows', () => {
	it('accepts an API-format workflow and keeps titles', () => {
		const result = importWorkflowText(JSON.stringify(textToImage));
		expect(result.ok && result.prompt['6']?._meta?.title).toBe('CLIP Text Encode (Positive)');
	});

	it('accepts a body as sent to /api/prompt', () => {
		expect(importWorkflowText(JSON.stringify({ prompt: textToImage, client_id: 'x' })).ok).toBe(true);
	});

	it('explains malformed JSON with line and column', () => {
		const result = importWorkflowText('{\n  "3": {\n    "class_type": "KSampler",,\n  }\n}');
		expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/not valid JSON.*line 3, column/) });
	});

	it('names the UI format and says how to export the API format', () => {
		expect(importWorkflowText('{"nodes":[],"links":[],"version":0.4}')).toEqual({ ok: false, message: UI_FORMAT_HINT });
	});

	it('refuses nodes without class_type, empty workflows and non-objects', () => {
		expect(importWorkflowText('{"1":{"inputs":{}}}')).toMatchObject({ ok: false, message: /Node "1" has no "class_type"/ });
		expect(importWorkflowText('{}')).toMatchObject({ ok: false, message: /no nodes/ });
		expect(importWorkflowText('[1,2]')).toMatchObject({ ok: false });
		expect(importWorkflowText('  ')).toMatchObject({ ok: false, message: /empty/ });
	});
});

describe('workflows carried in PNG images', () => {
	it('reads the prompt from a tEXt chunk', async () => {
		const bytes = png(
			chunk('tEXt', latin1(`prompt\0${JSON.stringify(textToImage)}`)),
			chunk('tEXt', latin1('workflow\0{"nodes":[],"links":[]}'))
		);
		const text = await readPngText(bytes);
		expect(text.ok).toBe(true);
		expect(text.ok && importWorkflowText(text.chunks['prompt']!).ok).toBe(true);
	});

	it('reads compressed iTXt chunks when given an inflater', async () => {
		const body = new TextEncoder().encode(JSON.stringify(textToImage));
		const data = new Uint8Array([...latin1('prompt\0'), 1, 0, 0, 0, ...deflateSync(body)]);
		const text = await readPngText(
			png(chunk('iTXt', data)),
			async (d) => new Uint8Array(await import('node:zlib').then((z) => z.inflateSync(d)))
		);
		expect(text.ok && importWorkflowText(text.chunks['prompt']!).ok).toBe(true);
	});

	it('refuses files that are not PNG or are cut off', async () => {
		expect(await readPngText(new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false, message: /not a PNG/ });
		const cut = png(chunk('tEXt', latin1('prompt\0{}'))).subarray(0, 20);
		expect(await readPngText(cut)).toMatchObject({ ok: false, message: /cut off/ });
	});
});
