import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config';
import { DEFAULT_TIMINGS } from './app-timings';

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

describe('the runtime config’s timings', () => {
	it('keeps the product’s defaults when the file sets none, and fills the keys it leaves out', () => {
		expect(parseRuntimeConfig(JSON.stringify({ demo: section }))).toEqual({ ok: true, config: { demo: expect.anything() } });
		expect(parseRuntimeConfig(JSON.stringify({ timings: { undoMs: 1500, workflowPollMs: 250 } }))).toEqual({
			ok: true,
			config: { timings: { ...DEFAULT_TIMINGS, undoMs: 1500, workflowPollMs: 250 } }
		});
	});

	it('ignores keys it does not know, so an older app reads a newer file', () => {
		expect(parseRuntimeConfig(JSON.stringify({ timings: { queueWatchMs: 700, confettiMs: 3 } }))).toEqual({
			ok: true,
			config: { timings: { ...DEFAULT_TIMINGS, queueWatchMs: 700 } }
		});
	});

	it.each([
		['zero', { undoMs: 0 }, /timings\.undoMs .* from 1 to 3600000 \(got 0\)/],
		['a negative number', { undoGraceMs: -5 }, /timings\.undoGraceMs .*\(got -5\)/],
		['a fraction', { workflowPollMs: 2.5 }, /timings\.workflowPollMs must be a whole number/],
		['a string', { queueWatchMs: '5000' }, /timings\.queueWatchMs .*\(got "5000"\)/],
		['more than an hour', { liveQueueEveryMs: 3_600_001 }, /timings\.liveQueueEveryMs/]
	])('refuses %s as a timing, naming the key and the value', (_what, timings, message) => {
		expect(parseRuntimeConfig(JSON.stringify({ demo: section, timings }))).toMatchObject({ ok: false, message });
	});

	it('refuses timings that are not an object', () => {
		expect(parseRuntimeConfig(JSON.stringify({ timings: [1500] }))).toMatchObject({ ok: false, message: /"timings" must be an object/ });
		expect(parseRuntimeConfig(JSON.stringify({ timings: 1500 }))).toMatchObject({ ok: false, message: /"timings" must be an object/ });
	});

	it('reads only own properties: a `__proto__` key sets no timing', () => {
		expect(parseRuntimeConfig('{"timings":{"__proto__":{"undoMs":1}}}')).toEqual({ ok: true, config: { timings: DEFAULT_TIMINGS } });
	});
});
