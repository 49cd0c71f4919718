import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridge as fakeBridge } from './testing/fake-bridge';
import { ProfilesStore } from './profiles.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('./testing/fake-bridge'));

const check = (ok: boolean, message?: string) => ({
	name: 'object_info' as const,
	ok,
	summary: ok ? 'Read 12 nodes' : 'failed',
	ms: 3,
	...(message ? { error: { kind: 'unauthorized' as const, message } } : {})
});

describe('a profile is tested when saved', () => {
	beforeEach(() => fakeBridge.reset());

	it.each([
		['passes', [check(true)], 'Saved profile Lab. The connection test passed.'],
		[
			'finds a problem',
			[check(true), check(false, 'The key was refused.')],
			'Saved profile Lab. The connection test found 1 problem: The key was refused.'
		]
	])('online, the test runs and its outcome is said when it %s', async (_name, workflow, said) => {
		fakeBridge.answer('testConnection', ({ id }) => ({ ok: true, value: { profileId: id, at: 1, workflow, router: null } }));
		const store = new ProfilesStore();
		expect(await store.testSaved({ id: 'lab', name: 'Lab' }, true)).toBe(said);
		expect(fakeBridge.callsOf('testConnection')).toEqual([{ id: 'lab' }]);
		expect(store.reports['lab']).toMatchObject({ ok: true });
	});

	it('offline, nothing is asked and the card says it could not be tested', async () => {
		const store = new ProfilesStore();
		expect(await store.testSaved({ id: 'lab', name: 'Lab' }, false)).toBe(
			'Saved profile Lab. It could not be tested: this device is offline.'
		);
		expect(fakeBridge.callsOf('testConnection')).toEqual([]);
		expect(store.reports['lab']).toMatchObject({ ok: false, error: { message: expect.stringContaining('offline') } });
	});
});
