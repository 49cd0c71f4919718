import { describe, expect, it } from 'vitest';
import { readPng } from '../../workflows/protocol/files/png';
import { bytesSource, FileReader } from '../../workflows/protocol/files/byte-source';
import { MAX_CANVAS_SIDE, pictureLayout } from './grid-picture';
import { withTextChunks } from './png-text';

describe('the grid picture', () => {
	it('keeps cells at 256 px while they fit, and scales them down to stay within the canvas limit', () => {
		expect(pictureLayout(3, 4)).toMatchObject({ cell: 256, width: 160 + 3 * 260, height: 40 + 4 * 260 });
		const big = pictureLayout(20, 400);
		expect(big.height).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
		expect(big.width).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
	});

	it('carries the sweep and the workflow as text chunks a PNG reader finds', async () => {
		// The smallest PNG: signature, IHDR, IDAT, IEND (a 1x1 grey pixel).
		const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg=='), (c) =>
			c.charCodeAt(0)
		);
		const out = withTextChunks(png, {
			prompt: '{"3":{"class_type":"KSampler","inputs":{}}}',
			runboard_sweep: '{"id":"s1","title":"Café"}'
		});
		const signal = new AbortController().signal;
		const texts = (await readPng(new FileReader(bytesSource(out), signal), signal)).texts.result();
		expect(texts['prompt']).toBe('{"3":{"class_type":"KSampler","inputs":{}}}');
		expect(JSON.parse(texts['runboard_sweep'] ?? '')).toEqual({ id: 's1', title: 'Café' });
	});
});
