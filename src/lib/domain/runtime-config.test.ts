import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config';

describe('the runtime config', () => {
	it('reads the demo section', () => {
		const text = JSON.stringify({
			demo: { name: 'Demo', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'k' }
		});
		expect(parseRuntimeConfig(text)).toEqual({
			ok: true,
			config: { demo: { name: 'Demo', workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'k' } }
		});
	});

	it('accepts a config without a demo and refuses a broken one with a reason', () => {
		expect(parseRuntimeConfig('{}')).toEqual({ ok: true, config: {} });
		expect(parseRuntimeConfig('<html>')).toMatchObject({ ok: false, message: /not a JSON object/ });
		expect(parseRuntimeConfig('{"demo":{"workflowUrl":"javascript:alert(1)","routerUrl":"http://x","apiKey":""}}')).toMatchObject({
			ok: false,
			message: /workflowUrl/
		});
	});
});
