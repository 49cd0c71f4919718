import { describe, expect, it } from 'vitest';
import type { RunStatus } from './run-record';
import { describeStop, settleStop, type StopOutcome } from './stop-outcome';

describe('settleStop', () => {
	const stopping: StopOutcome = { kind: 'stopping', via: 'interrupt' };
	it.each<[RunStatus, StopOutcome]>([
		['succeeded', { kind: 'finished-first' }],
		['interrupted', { kind: 'interrupted', via: 'interrupt' }],
		['cancelled', { kind: 'interrupted', via: 'interrupt' }],
		['running', stopping],
		['failed', stopping]
	])('a stop under way on a run now %s reads %o', (status, settled) => {
		expect(settleStop(stopping, status)).toEqual(settled);
	});

	it('leaves an outcome the server already showed as it was', () => {
		const removed: StopOutcome = { kind: 'removed', via: 'queue-delete' };
		expect(settleStop(removed, 'succeeded')).toBe(removed);
	});

	it('says a run that finished in its last node finished first, never that it was cancelled', () => {
		const words = describeStop(settleStop(stopping, 'succeeded'));
		expect(words).toBe('The job finished before the cancel took effect.');
		expect(words).not.toMatch(/cancelled/i);
	});
});
