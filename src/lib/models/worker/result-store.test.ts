import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/worker/kv-store';
import { keepResult, storeResult } from './result-store';
import { Slots } from './slots';

const enc = (s: string) => new TextEncoder().encode(s);

describe('saving results', () => {
	it('saves the body first, then asset bytes with their expiry; a host without CORS is noted, not fatal', async () => {
		const kv = new MemoryStore();
		const body = {
			images: [
				{ url: 'https://store/o/a.png?X-Goog-Date=20261121T000000Z&X-Goog-Expires=3600&X-Goog-Signature=ab', content_type: 'image/png' }
			],
			video: { url: 'https://cdn/assets/h/v.webp?Expires=1795000000&Signature=x', content_type: 'image/webp' },
			predictions: [{ bytesBase64Encoded: btoa('PNGDATA'), mimeType: 'image/png' }]
		};
		const result = await storeResult(kv, 'r1', enc(JSON.stringify(body)), 'application/json', async (url) =>
			url.startsWith('https://store') ? enc('bytes') : { notSaved: 'no CORS' }
		);
		expect(await kv.get('models:bytes:r1:body')).toEqual(enc(JSON.stringify(body)));
		expect(result.assets).toMatchObject([
			{ kind: 'image', source: 'url', expiresAt: Date.UTC(2026, 10, 21, 1), bytesKey: 'models:bytes:r1:0', size: 5 },
			{ kind: 'image', source: 'url', expiresAt: 1795000000 * 1000, notSaved: 'no CORS' },
			{ kind: 'image', source: 'inline', bytesKey: 'models:bytes:r1:2', size: 7 }
		]);
	});

	it('keeps raw media bodies as one asset and a cut-off JSON body as text', async () => {
		const kv = new MemoryStore();
		const wav = await storeResult(kv, 'r2', new Uint8Array([82, 73, 70, 70]), 'audio/wav', async () => ({ notSaved: '' }));
		expect(wav.assets).toEqual([{ path: '', kind: 'audio', mime: 'audio/wav', source: 'body', bytesKey: 'models:bytes:r2:body', size: 4 }]);
		const cut = await storeResult(kv, 'r3', enc('{"output": "ab'), 'application/json', async () => ({ notSaved: '' }));
		expect(cut).toMatchObject({ text: '{"output": "ab', assets: [] });
	});

	it('with the device full, keeps the parsed result and every link, marks the bytes not saved, and says so', async () => {
		const kv = new MemoryStore();
		kv.set = async () => {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		};
		const body = { images: [{ url: 'https://store/o/a.png', content_type: 'image/png' }], seed: 7 };
		const reply = { header: (name: string) => (name === 'Content-Type' ? 'application/json' : null), body: JSON.stringify(body) };
		const kept = await keepResult(kv, 'r4', reply, async () => enc('bytes'));
		expect(kept.warning).toContain('Storage on this device is full');
		expect(kept.result).toMatchObject({ bytesKey: '', json: body });
		expect(kept.result.assets).toEqual([
			{
				path: 'images.0.url',
				kind: 'image',
				source: 'url',
				mime: 'image/png',
				url: 'https://store/o/a.png',
				notSaved: 'storage on this device is full'
			}
		]);
	});

	it('a failure other than a full device is reported as the result not being saved, not as a full device', async () => {
		const kv = new MemoryStore();
		kv.set = async () => {
			throw new Error('database closed');
		};
		const reply = { header: () => 'image/png', body: '', bytes: new Uint8Array([1, 2, 3]) };
		const kept = await keepResult(kv, 'r5', reply, async () => enc(''));
		expect(kept.warning).not.toContain('Storage on this device is full');
		expect(kept.warning).toContain('database closed');
	});
});

describe('the cap on synchronous calls held open', () => {
	it('holds at most its size and hands slots on in order', async () => {
		const slots = new Slots(2);
		const order: number[] = [];
		const a = await slots.acquire();
		const b = await slots.acquire();
		const c = slots.acquire().then((r) => (order.push(3), r));
		const d = slots.acquire().then((r) => (order.push(4), r));
		expect(slots.busy).toBe(2);
		expect(slots.queued).toBe(2);
		a();
		a(); // releasing twice frees one slot only
		(await c)();
		b();
		(await d)();
		expect(order).toEqual([3, 4]);
		expect(slots.busy).toBe(0);
	});
});
