import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config';

const section = { workflowUrl: 'http://127.0.0.1:1', routerUrl: 'http://127.0.0.1:2', apiKey: 'k' };

describe('the runtime config', () => {
	it('reads the demo section', () => {
		const text = JSON.stringify({ demo: { name: 'Demo', ...section } });
		expect(parseRuntimeConfig(text)).toEqual({ ok: true, config: { demo: { name: 'Demo', ...section } } });
	});

	it('reads the v2 demo beside the v1 one, each named by default when the file gives no name', () => {
		const text = JSON.stringify({ demo: section, demoV2: section });
		expect(parseRuntimeConfig(text)).toEqual({
			ok: true,
			config: { demo: { name: 'Demo (local emulator)', ...section }, demoV2: { name: 'Demo on v2 (managed)', ...section } }
		});
	});

	it('still reads a config written before the v2 demo existed (only `demo`), and one with only the v2 demo', () => {
		expect(parseRuntimeConfig(JSON.stringify({ demo: section }))).toEqual({
			ok: true,
			config: { demo: { name: 'Demo (local emulator)', ...section } }
		});
		expect(parseRuntimeConfig(JSON.stringify({ demoV2: { name: 'V2', ...section } }))).toEqual({
			ok: true,
			config: { demoV2: { name: 'V2', ...section } }
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

	it.each([
		['not an object', { demo: section, demoV2: 'yes' }, /"demoV2" must be an object/],
		['a bad address', { demo: section, demoV2: { ...section, routerUrl: 'ftp://x' } }, /demoV2\.routerUrl/],
		['no key', { demoV2: { workflowUrl: section.workflowUrl, routerUrl: section.routerUrl } }, /demoV2\.apiKey/]
	])('refuses a v2 demo section with %s, naming it', (_what, config, message) => {
		expect(parseRuntimeConfig(JSON.stringify(config))).toMatchObject({ ok: false, message });
	});

	it('reads only own properties: a `__proto__` key names no section', () => {
		expect(parseRuntimeConfig('{"__proto__":{"demoV2":{"workflowUrl":"http://a","routerUrl":"http://b","apiKey":"k"}}}')).toEqual({
			ok: true,
			config: {}
		});
	});
});
