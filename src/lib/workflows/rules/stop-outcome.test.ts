import { describe, expect, it } from 'vitest';
import type { RunStatus } from './run-record';
import { afterCancelRead, describeStop, settleStop, type StopOutcome } from './stop-outcome';

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

describe('reading a v2 job back after its cancel', () => {
	const base = { answered: 'canceling' as const, hadStarted: true, via: 'job-cancel' as const, attempt: 0, checks: 6, behind: null };
	it.each<[string, Parameters<typeof afterCancelRead>[0], StopOutcome | 'wait']>([
		['canceled, having run', { ...base, read: 'canceled' }, { kind: 'interrupted', via: 'job-cancel' }],
		['canceled while waiting', { ...base, read: 'canceled', hadStarted: false }, { kind: 'removed', via: 'job-cancel' }],
		['succeeded first', { ...base, read: 'succeeded' }, { kind: 'finished-first' }],
		[
			'kept in the queue (the proxy answers `queued`)',
			{ ...base, answered: 'queued', read: 'queued' },
			{ kind: 'still-waiting', via: 'job-cancel' }
		],
		// Seen on the real proxy in front of ComfyUI 0.3.64: 200 `canceling`, then `running` on every read until `succeeded`.
		[
			'`running` after a `canceling` answer: the server does not stop jobs; the ComfyUI behind it is offered',
			{ ...base, read: 'running', behind: 'http://127.0.0.1:8810' },
			{ kind: 'not-stopped', via: 'job-cancel', behind: 'http://127.0.0.1:8810' }
		],
		['still `canceling`: read again', { ...base, read: 'canceling' }, 'wait'],
		['still `canceling` after every read: stopping', { ...base, read: 'canceling', attempt: 6 }, { kind: 'stopping', via: 'job-cancel' }],
		['an interrupt behind the proxy, still running: read again', { ...base, via: 'interrupt-behind', read: 'running' }, 'wait']
	])('%s', (_name, input, expected) => {
		expect(afterCancelRead(input)).toEqual(expected);
	});

	it('a job the server would not stop that ran to its end says so, and one interrupted behind the proxy says that', () => {
		const notStopped: StopOutcome = { kind: 'not-stopped', via: 'job-cancel', behind: 'http://127.0.0.1:8810' };
		expect(describeStop(notStopped)).toMatch(
			/accepted the cancel but does not stop jobs.*ComfyUI behind it \(http:\/\/127\.0\.0\.1:8810\)/
		);
		expect(describeStop(settleStop(notStopped, 'succeeded'))).toBe(
			'The job ran to its end: the server accepted the cancel but does not stop jobs.'
		);
		expect(describeStop(settleStop({ kind: 'stopping', via: 'interrupt-behind' }, 'cancelled'))).toMatch(
			/^Interrupted: the server stopped the job \(an interrupt to the ComfyUI behind the proxy\)/
		);
	});
});
