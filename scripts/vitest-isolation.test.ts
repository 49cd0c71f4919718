import { describe, expect, it } from 'vitest';
import { needsIsolation } from './vitest-isolation';

describe('which test files get a module registry of their own', () => {
	it.each([
		["vi.mock('$lib/client/worker-bridge.svelte', () => import('./fake'));", true],
		["vi.doMock('../hash/blake3', factory);", true],
		["vi.stubGlobal('WebSocket', RefusedSocket);", true],
		['vi . mock ("x")', true],
		['const spy = vi.fn(); vi.useFakeTimers();', false],
		['// mocks nothing: it talks to the emulator', false],
		['mockServer.vi.mocked', false]
	])('%s → %s', (source, expected) => {
		expect(needsIsolation(source)).toBe(expected);
	});
});
