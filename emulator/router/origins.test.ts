import { describe, expect, it } from 'vitest';
import { readCliOptions } from '../cli-options';
import { createEmulator, DEFAULT_PORTS } from '../index';

describe('the provider CDN origin', () => {
	it('has its own port from --cdn-port, RUNBOARD_CDN_PORT or the default', () => {
		expect(readCliOptions([], {}).ports?.cdn).toBe(DEFAULT_PORTS.cdn);
		expect(readCliOptions([], { RUNBOARD_CDN_PORT: '9100' }).ports?.cdn).toBe(9100);
		expect(readCliOptions(['--cdn-port', '9200'], { RUNBOARD_CDN_PORT: '9100' }).ports?.cdn).toBe(9200);
		expect(() => readCliOptions(['--cdn-port=abc'], {})).toThrow(/cdn-port/);
	});

	it('is a fourth origin, distinct from the router and storage origins, closed with the emulator', async () => {
		const emu = await createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 } });
		const origins = new Set([emu.urls.workflow, emu.urls.router, emu.urls.storage, emu.urls.cdn].map((u) => new URL(u).origin));
		expect(origins.size).toBe(4);
		expect((await fetch(`${emu.urls.cdn}/assets/x/y`)).status).toBe(403);
		await emu.close();
		await expect(fetch(`${emu.urls.cdn}/assets/x/y`)).rejects.toThrow();
	});
});
