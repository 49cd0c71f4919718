import { describe, expect, it } from 'vitest';
import { useRouterEmulator } from './test-helpers';

const api = useRouterEmulator({ settings: { providerMs: 10 } });

describe('the cutResultOnce fault', () => {
	it('cuts the next synchronous result mid-JSON with a matching length; the same key replays it whole', async () => {
		await api.control('/router/faults', { cutResultOnce: true });
		const key = { 'Idempotency-Key': 'cut-once-1' };
		const cut = await api.post('/v2/models/quill/quill-mini', { prompt: 'hello' }, key);
		expect(cut.status).toBe(200);
		const text = await cut.text();
		expect(cut.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
		expect(() => JSON.parse(text)).toThrow();

		const again = await api.post('/v2/models/quill/quill-mini', { prompt: 'hello' }, key);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		const whole = await again.text();
		expect(whole.startsWith(text)).toBe(true);
		expect(JSON.parse(whole)).toBeTypeOf('object');
	});

	it('leaves errors and catalog answers alone', async () => {
		await api.control('/router/faults', { cutResultOnce: true });
		const list = await api.get('/v2/models?limit=2');
		expect(JSON.parse(await list.text())).toBeTypeOf('object');
		const model = await api.get('/v2/models/quill/quill-mini');
		expect(JSON.parse(await model.text())).toBeTypeOf('object');
		const faults = (await api.control('/router/faults', {})) as { faults: { cutResultOnce: boolean } };
		expect(faults.faults.cutResultOnce).toBe(true);
	});
});
