import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_INFLATED_TEXT_BYTES } from './limits';
import { inflateCapped } from './inflate';
import { type ByteSource } from './read-workflow-file';
import { API_WORKFLOW, concat, fixture, FIXTURES, iTXt, png, pngChunk, read, tEXt, UI_WORKFLOW, zTXt } from './workflow-files.fixture';
import { workflowFromFileTexts } from './workflow-texts';

const enc = (s: string) => new TextEncoder().encode(s);

/** A Matroska element with an 8-byte size field (0x01 marker, then the size in the low 4 bytes). */
function sized(id: number[], body: Uint8Array, size = body.length): Uint8Array {
	const out = concat(new Uint8Array(id), new Uint8Array([0x01, 0, 0, 0, 0, 0, 0, 0]), body);
	const view = new DataView(out.buffer);
	view.setUint32(id.length + 1, Math.floor(size / 2 ** 32) & 0xffffff);
	view.setUint32(id.length + 4, size >>> 0);
	return out;
}

function u32(n: number): Uint8Array {
	const out = new Uint8Array(4);
	new DataView(out.buffer).setUint32(0, n);
	return out;
}

const MKV = {
	ebml: [0x1a, 0x45, 0xdf, 0xa3],
	docType: [0x42, 0x82],
	segment: [0x18, 0x53, 0x80, 0x67],
	seekHead: [0x11, 0x4d, 0x9b, 0x74],
	seek: [0x4d, 0xbb],
	seekId: [0x53, 0xab],
	seekPosition: [0x53, 0xac],
	tags: [0x12, 0x54, 0xc3, 0x67],
	tag: [0x73, 0x73],
	simpleTag: [0x67, 0xc8],
	tagName: [0x45, 0xa3],
	tagString: [0x44, 0x87],
	cluster: [0x1f, 0x43, 0xb6, 0x75]
};

/** Virtual bytes: real parts at offsets, zeros elsewhere, counting what is asked for. */
function sparse(size: number, parts: Array<[number, Uint8Array]>): { source: ByteSource; requested: () => number } {
	let requested = 0;
	const source: ByteSource = {
		size,
		slice: async (start, end) => {
			requested += end - start;
			if (end - start > 1 << 20) throw new Error(`read ${end - start} bytes at ${start}: the reader must not read media data`);
			const out = new Uint8Array(end - start);
			for (const [at, bytes] of parts) {
				const from = Math.max(start, at);
				const to = Math.min(end, at + bytes.length);
				if (from < to) out.set(bytes.subarray(from - at, to - at), from - start);
			}
			return out;
		}
	};
	return { source, requested: () => requested };
}

describe('files saved by ComfyUI (fixtures made by scripts/make-workflow-fixtures.py)', () => {
	it.each(FIXTURES)('reads the prompt and the UI workflow from %s', async (name, format) => {
		const result = await read(fixture(name), name);
		if (!result.ok) throw new Error(result.message);
		expect(result.format).toBe(format);
		const { prompt, workflow } = workflowFromFileTexts(result.texts);
		expect(JSON.parse(prompt!)).toEqual(API_WORKFLOW);
		expect(JSON.parse(workflow!)).toEqual(UI_WORKFLOW);
	});

	it('reads a picked File (a Blob) by its name', async () => {
		const file = new File([fixture('animated.webp') as Uint8Array<ArrayBuffer>], 'clip.webp');
		expect(await read(file as unknown as ByteSource)).toMatchObject({ ok: true });
		const { readWorkflowFile } = await import('./read-workflow-file');
		const odd = new File([new Uint8Array([1, 2, 3])], 'odd.bin');
		expect(await readWorkflowFile({ source: odd }, new AbortController().signal)).toMatchObject({ ok: false, message: /"odd\.bin"/ });
	});
});

describe('a file cut off anywhere', () => {
	const offsets = (size: number) => [
		...new Set([0, 1, 7, 8, 12, 16, 33, 100, ...Array.from({ length: 40 }, (_, i) => Math.floor((size * i) / 40)), size - 1])
	];

	it.each(FIXTURES)('never throws; %s says cut off or damaged, or still reads the whole workflow', async (name) => {
		const bytes = fixture(name);
		for (const cut of offsets(bytes.length)) {
			const result = await read(bytes.subarray(0, cut), name);
			if (result.ok) {
				expect(JSON.parse(workflowFromFileTexts(result.texts).workflow!), `cut at ${cut}`).toEqual(UI_WORKFLOW);
			} else if (cut >= 16) {
				expect(result.kind, `cut at ${cut}: ${result.message}`).toMatch(/^(truncated|corrupt)$/);
				expect(result.message).toContain(`"${name}"`);
			}
		}
	});

	it.each(['image-text.png', 'animated.png', 'image-ztxt.png', 'animated.webp', 'video.mp4', 'video.webm'])(
		'says %s is cut off, never that it carries no workflow',
		async (name) => {
			const bytes = fixture(name);
			for (const cut of offsets(bytes.length).filter((c) => c >= 16)) {
				const result = await read(bytes.subarray(0, cut), name);
				expect(result, `cut at ${cut}`).toMatchObject({ ok: false, kind: 'truncated', message: /is cut off/ });
			}
		}
	);
});

describe('bounded reads', () => {
	/**
	 * A 200 MB MP4 whose metadata (`moov`) is at the end, as ffmpeg writes it: only the fixture's
	 * real header and `moov` bytes exist; the media data in between is never produced.
	 */
	function bigMp4(mdatSize: number): { source: ByteSource; requested: () => number } {
		const real = fixture('video.mp4');
		const view = new DataView(real.buffer, real.byteOffset);
		const mdatAt = 40;
		expect(String.fromCharCode(...real.subarray(mdatAt + 4, mdatAt + 8))).toBe('mdat');
		const moov = real.subarray(mdatAt + view.getUint32(mdatAt));
		const head = real.slice(0, mdatAt + 16);
		const large = mdatSize > 0xffffffff;
		// A 64-bit ("largesize") mdat header when the size does not fit 32 bits.
		new DataView(head.buffer).setUint32(mdatAt, large ? 1 : mdatSize);
		if (large) {
			new DataView(head.buffer).setUint32(mdatAt + 8, Math.floor(mdatSize / 2 ** 32));
			new DataView(head.buffer).setUint32(mdatAt + 12, mdatSize >>> 0);
		}
		const moovAt = mdatAt + mdatSize;
		const size = moovAt + moov.length;
		let requested = 0;
		const source: ByteSource = {
			size,
			slice: async (start, end) => {
				requested += end - start;
				if (end - start > 1 << 20) throw new Error(`read ${end - start} bytes at ${start}: the reader must not read media data`);
				const out = new Uint8Array(end - start);
				for (let i = start; i < end; i++) out[i - start] = i < head.length ? head[i]! : i >= moovAt ? moov[i - moovAt]! : 0;
				return out;
			}
		};
		return { source, requested: () => requested };
	}

	it.each([200 * 1024 * 1024, 5 * 1024 * 1024 * 1024])(
		'finds the metadata at the end of a %d-byte MP4 reading only a few KB',
		async (mdat) => {
			const { source, requested } = bigMp4(mdat);
			const result = await read(source, 'long.mp4');
			if (!result.ok) throw new Error(result.message);
			expect(JSON.parse(result.texts.prompt!)).toEqual(API_WORKFLOW);
			expect(result.bytesRead).toBe(requested());
			expect(requested()).toBeLessThan(16 * 1024);
		}
	);
});

describe('bounded reads of long WebM videos', () => {
	const prompt = JSON.stringify(API_WORKFLOW);
	const tags = sized(
		MKV.tags,
		sized(MKV.tag, concat(sized(MKV.simpleTag, concat(sized(MKV.tagName, enc('PROMPT')), sized(MKV.tagString, enc(prompt))))))
	);
	const ebml = sized(MKV.ebml, sized(MKV.docType, enc('webm')));
	/** 10,000 clusters of 20 KiB (about 200 MB): walking every cluster header would pass the read budget. */
	const CLUSTERS = 10_000;
	const STRIDE = 12 + 20 * 1024;

	/** EBML header, then a segment of `before`, the clusters (headers real, media zeros) and `after`. */
	function longWebm(before: Uint8Array, after: Uint8Array): { source: ByteSource; requested: () => number } {
		const head = concat(ebml, sized(MKV.segment, before, before.length + CLUSTERS * STRIDE + after.length));
		const clustersAt = head.length;
		const afterAt = clustersAt + CLUSTERS * STRIDE;
		const clusterHeader = sized(MKV.cluster, new Uint8Array(0), STRIDE - 12);
		let requested = 0;
		const source: ByteSource = {
			size: afterAt + after.length,
			slice: async (start, end) => {
				requested += end - start;
				const out = new Uint8Array(end - start);
				const put = (at: number, bytes: Uint8Array) => {
					const from = Math.max(start, at);
					const to = Math.min(end, at + bytes.length);
					if (from < to) out.set(bytes.subarray(from - at, to - at), from - start);
				};
				put(0, head);
				const first = Math.max(0, Math.floor((start - clustersAt) / STRIDE));
				for (let i = first; i < CLUSTERS && clustersAt + i * STRIDE < end; i++) put(clustersAt + i * STRIDE, clusterHeader);
				put(afterAt, after);
				return out;
			}
		};
		return { source, requested: () => requested };
	}

	it('stops at the first cluster when the tags come before the media', async () => {
		const { source, requested } = longWebm(tags, new Uint8Array(0));
		expect(await read(source, 'long.webm')).toMatchObject({ ok: true, format: 'webm', texts: { prompt } });
		expect(requested()).toBeLessThan(16 * 1024);
	});

	it('jumps over the media to tags at the end, as the SeekHead points', async () => {
		const seekHead = (position: number) =>
			sized(MKV.seekHead, sized(MKV.seek, concat(sized(MKV.seekId, new Uint8Array(MKV.tags)), sized(MKV.seekPosition, u32(position)))));
		const before = seekHead(seekHead(0).length + CLUSTERS * STRIDE); // positions count from the segment's content
		const { source, requested } = longWebm(before, tags);
		expect(await read(source, 'long.webm')).toMatchObject({ ok: true, texts: { prompt } });
		expect(requested()).toBeLessThan(16 * 1024);
	});

	it('without a SeekHead, walks the cluster headers only (a small read per cluster)', async () => {
		const { source, requested } = longWebm(new Uint8Array(0), tags);
		expect(await read(source, 'long.webm')).toMatchObject({ ok: true, texts: { prompt } });
		expect(requested()).toBeLessThan(CLUSTERS * 300);
	});
});

describe('an Opus file whose tags span several Ogg pages', () => {
	function page(serial: number, sequence: number, packetBytes: Uint8Array, continued: boolean, last: boolean): Uint8Array {
		const segments = Array.from({ length: Math.floor(packetBytes.length / 255) }, () => 255);
		if (last) segments.push(packetBytes.length % 255);
		const header = new Uint8Array(27 + segments.length);
		header.set(enc('OggS'), 0);
		header[5] = (continued ? 1 : 0) | (sequence === 0 ? 2 : 0);
		new DataView(header.buffer).setUint32(14, serial, true);
		new DataView(header.buffer).setUint32(18, sequence, true);
		header[26] = segments.length;
		header.set(segments, 27);
		return concat(header, packetBytes);
	}

	it('joins the comment packet across pages', async () => {
		const workflow = JSON.stringify({ ...(UI_WORKFLOW as object), padding: 'x'.repeat(150_000) });
		const comment = enc(`workflow=${workflow}`);
		const tags = concat(
			enc('OpusTags'),
			new Uint8Array([4, 0, 0, 0]),
			enc('test'),
			new Uint8Array([1, 0, 0, 0]),
			new Uint8Array(new Uint32Array([comment.length]).buffer),
			comment
		);
		const pages = [page(7, 0, concat(enc('OpusHead'), new Uint8Array(11)), false, true)];
		const perPage = 255 * 255;
		for (let at = 0, n = 1; at < tags.length; at += perPage, n++) {
			const part = tags.subarray(at, at + perPage);
			pages.push(page(7, n, part, at > 0, at + perPage >= tags.length));
		}
		expect(pages.length).toBeGreaterThan(3);
		const result = await read(concat(...pages), 'long.opus');
		expect(result).toMatchObject({ ok: true, format: 'opus', texts: { workflow } });
	});
});

describe('other writers of the same containers', () => {
	it('reads an ID3v2.3 tag with UTF-16 TXXX frames (ffmpeg -id3v2_version 3, other taggers)', async () => {
		const utf16 = (text: string) => new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer)]);
		const body = concat(new Uint8Array([1]), utf16('workflow'), new Uint8Array([0, 0]), utf16('{"nodes":[],"é":1}'));
		const frame = concat(enc('TXXX'), u32(body.length), new Uint8Array([0, 0]), body);
		const size = frame.length + 10; // and some padding
		const header = concat(enc('ID3'), new Uint8Array([3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]));
		const mp3 = concat(header, frame, new Uint8Array(10), new Uint8Array([0xff, 0xfb, 0x90, 0x00]));
		expect(await read(mp3, 'song.mp3')).toMatchObject({ ok: true, format: 'mp3', texts: { workflow: '{"nodes":[],"é":1}' } });
	});

	it('reads big-endian EXIF with the "Exif\\0\\0" prefix in a still WebP', async () => {
		const value = enc('prompt:{"1":{}}\0');
		const tiff = concat(
			enc('MM'),
			new Uint8Array([0, 42]),
			u32(8),
			new Uint8Array([0, 1]),
			new Uint8Array([0x01, 0x10, 0, 2]),
			u32(value.length),
			u32(26),
			u32(0),
			value
		);
		const exif = concat(enc('Exif\0\0'), tiff);
		const pad = exif.length % 2 ? new Uint8Array(1) : new Uint8Array(0);
		const le32 = (n: number) => new Uint8Array(new Uint32Array([n]).buffer);
		const chunks = concat(enc('VP8L'), le32(4), new Uint8Array(4), enc('EXIF'), le32(exif.length), exif, pad);
		const webp = concat(enc('RIFF'), le32(4 + chunks.length), enc('WEBP'), chunks);
		expect(await read(webp, 'still.webp')).toMatchObject({ ok: true, format: 'webp', texts: { prompt: '{"1":{}}' } });
	});
});

describe('decompression bombs and damaged compressed text', () => {
	const bomb = new Uint8Array(deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));

	it('stops inflating at the cap, with the bytes produced counted', async () => {
		const cap = 1024 * 1024;
		const result = await inflateCapped(bomb, cap, new AbortController().signal);
		expect(result.ok).toBe(false);
		if (result.ok || result.kind !== 'too-large') throw new Error('expected too-large');
		expect(result.produced).toBeGreaterThan(cap);
		expect(result.produced).toBeLessThanOrEqual(cap + 64 * 1024);
	});

	it.each([
		['zTXt', zTXt('workflow', bomb)],
		['iTXt', iTXt('workflow', bomb)]
	])('refuses a PNG whose %s chunk inflates past the cap', async (_type, chunk) => {
		expect(bomb.length).toBeLessThan(MAX_INFLATED_TEXT_BYTES);
		const result = await read(png(tEXt('prompt', '{}'), chunk), 'bomb.png');
		expect(result).toMatchObject({ ok: false, kind: 'too-large', message: /"bomb\.png".*"workflow" text expands to more than 8 MB/ });
	});

	it.each([
		['garbage', enc('this is not zlib data')],
		['a cut-off stream', new Uint8Array(deflateSync(Buffer.from(JSON.stringify(API_WORKFLOW)))).subarray(0, 30)],
		['nothing', new Uint8Array(0)]
	])('says a zTXt chunk holding %s is damaged', async (_what, data) => {
		const result = await read(png(zTXt('prompt', data)), 'broken.png');
		expect(result).toMatchObject({
			ok: false,
			kind: 'corrupt',
			message: /"broken\.png" cannot be read: its compressed "prompt" text cannot be decompressed/
		});
	});

	it('says a text chunk whose checksum does not match is damaged', async () => {
		const bytes = png(tEXt('prompt', '{"1":{}}'));
		bytes[8 + 25 + 8] = 0x71; // 'p' of the tEXt chunk's keyword becomes 'q'
		expect(await read(bytes, 'flipped.png')).toMatchObject({ ok: false, kind: 'corrupt', message: /checksum/ });
	});
});

describe('files that are not what they seem', () => {
	it.each([
		['empty.png', new Uint8Array(0), 'truncated', /is cut off: the file is empty/],
		['photo.jpg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), 'unsupported', /a JPEG image/],
		['renamed.png', enc('GIF89a....'), 'unsupported', /a GIF image/],
		['workflow.png', enc('  {"3": {}}'), 'unsupported', /JSON text/],
		['noise.webp', enc('hello, world, this is text'), 'unsupported', /not a format Runboard knows/],
		['plain.png', png(), 'no-workflow', /is a PNG image but carries no ComfyUI workflow/],
		['other.png', png(tEXt('parameters', 'a1111 style')), 'no-workflow', /carries no ComfyUI workflow/]
	])('%s: %s', async (name, bytes, kind, message) => {
		const result = await read(bytes, name);
		expect(result).toMatchObject({ ok: false, kind, message });
		expect(result.ok || result.message.startsWith(`"${name}"`)).toBe(true);
	});

	it('says when the file itself cannot be read (moved or changed after it was picked)', async () => {
		const gone: ByteSource = {
			size: 100,
			slice: () => Promise.reject(new DOMException('The file could not be read.', 'NotReadableError'))
		};
		expect(await read(gone, 'moved.png')).toMatchObject({
			ok: false,
			kind: 'corrupt',
			message: /"moved\.png".*NotReadableError.*choose the file again/
		});
	});

	it('stops when the read is cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		expect(await read(fixture('video.mp4'), 'v.mp4', controller.signal)).toMatchObject({ ok: false, kind: 'aborted' });
	});

	it('refuses Matroska tags nested deeper than the limit, without recursing further', async () => {
		let simple = sized(MKV.tagName, enc('X'));
		for (let i = 0; i < 50; i++) simple = sized([0x67, 0xc8], simple);
		const tags = sized([0x12, 0x54, 0xc3, 0x67], sized([0x73, 0x73], simple));
		const file = concat(sized([0x1a, 0x45, 0xdf, 0xa3], sized([0x42, 0x82], enc('webm'))), sized([0x18, 0x53, 0x80, 0x67], tags));
		expect(await read(file, 'deep.webm')).toMatchObject({ ok: false, kind: 'corrupt', message: /nested more than 8 levels/ });
	});
});

describe('keys named like built-in object members', () => {
	const hostile = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

	it('keeps them as plain own keys of a null-prototype object', async () => {
		const result = await read(png(...hostile.map((k) => tEXt(k, `"${k}"`)), tEXt('prompt', '{"1":{}}')), 'hostile.png');
		if (!result.ok) throw new Error(result.message);
		expect(Object.getPrototypeOf(result.texts)).toBeNull();
		for (const key of hostile) expect(Object.getOwnPropertyDescriptor(result.texts, key)?.value).toBe(`"${key}"`);
		expect(workflowFromFileTexts(result.texts)).toEqual({ prompt: '{"1":{}}' });
	});

	it('finds no workflow where only such keys exist', async () => {
		expect(await read(png(...hostile.map((k) => tEXt(k, '{}'))), 'only-hostile.png')).toMatchObject({ ok: false, kind: 'no-workflow' });
		const texts = Object.create(null) as Record<string, string>;
		texts['constructor'] = '{}';
		expect(workflowFromFileTexts(texts)).toEqual({});
		expect(workflowFromFileTexts({})).toEqual({});
	});
});

describe('workflowFromFileTexts', () => {
	it('returns the raw texts present, trimmed, leaving empty ones out', () => {
		expect(workflowFromFileTexts({ prompt: ' {"1":{}} ', workflow: '' })).toEqual({ prompt: '{"1":{}}' });
		expect(workflowFromFileTexts({ workflow: '{"nodes":[]}', encoder: 'Lavf' })).toEqual({ workflow: '{"nodes":[]}' });
	});
});

it('reads a PNG with an unknown chunk between text chunks', () => {
	return expect(read(png(tEXt('prompt', '{}'), pngChunk('zzZz', enc('x')), tEXt('workflow', '{}')))).resolves.toMatchObject({ ok: true });
});

describe('messages quote at most a short printable excerpt of the file', () => {
	// A keyword of 59 bytes (the limit is 79), with a bell, an escape sequence and a C1 control.
	const hostile = '\u0085\u0007\u001b[31m<script>' + 'k'.repeat(45);
	const webpWith = (type: string) => {
		const chunk = concat(
			Uint8Array.from(type, (c) => c.charCodeAt(0)),
			new Uint8Array([0xff, 0, 0, 0])
		);
		const riff = concat(enc('RIFF'), new Uint8Array([4 + chunk.length, 0, 0, 0]), enc('WEBP'), chunk);
		return riff;
	};
	const enc1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

	it.each([
		['a zTXt keyword with control characters and an escape sequence', png(zTXt(hostile, enc1('not zlib')))],
		['an iTXt keyword', png(iTXt(hostile, enc1('not zlib')))],
		['a WebP chunk type of raw bytes', webpWith('\u0007\u001b\u0085\u00ff')]
	])('%s', async (_what, bytes) => {
		const result = await read(bytes, 'hostile.png');
		expect(result.ok).toBe(false);
		if (result.ok) return;
		const [, quote = ''] = /cannot be read: .*?("[^"]*")/.exec(result.message) ?? /cut off: .*?("[^"]*")/.exec(result.message) ?? [];
		expect(quote, result.message).toMatch(/^"[\x20-\x7e…]{1,17}"$/);
		expect(result.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
	});
});
