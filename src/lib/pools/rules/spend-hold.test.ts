import { describe, expect, it } from 'vitest';
import { NEVER_ACCEPTED, type RunError, type WorkflowRun } from '../../core/protocol/workflow-run';
import { holdAtEnd, parseStoredHold, type HoldAtEnd } from './spend-hold';

type End = Pick<WorkflowRun, 'status' | 'error' | 'queuedAt' | 'startedAt' | 'movedTo'>;

const movedTo = { runId: 'r2', promptId: 'p2', profileId: 'home' };
const goneFromQueue: RunError = { kind: 'lost', title: 'Gone from the queue', message: 'The job left the server’s queue without running.' };
const wentAway: RunError = { kind: 'lost', title: 'Its server went away', message: 'You said Cloud is gone while this run waited there.' };

describe('what a run on a paid member does to the price it holds', () => {
	it.each([
		['still being sent', { status: 'submitting' }, 'open'],
		['waiting there', { status: 'queued', queuedAt: 1 }, 'open'],
		['running there', { status: 'running', queuedAt: 1, startedAt: 2 }, 'open'],
		[
			'never accepted: the answer was lost and the server has no such job',
			{ status: 'lost', error: NEVER_ACCEPTED },
			'give-back: never accepted'
		],
		// Listed there once (the submit answered, or polling saw it waiting), then forgotten: it may be charged.
		['"Never accepted" after the server listed it', { status: 'lost', error: NEVER_ACCEPTED, queuedAt: 1 }, 'keep'],
		['"Never accepted" after it started', { status: 'lost', error: NEVER_ACCEPTED, startedAt: 2 }, 'keep'],
		['another lost run (gone from the queue)', { status: 'lost', error: goneFromQueue, queuedAt: 1 }, 'keep'],
		[
			'moved: its cancel confirmed by the server before it started',
			{ status: 'cancelled', queuedAt: 1, movedTo },
			'give-back: moved before it started'
		],
		[
			'moved after the person said its server was gone (no confirmation)',
			{ status: 'lost', error: wentAway, queuedAt: 1, movedTo },
			'keep'
		],
		['cancelled by the person, not moved', { status: 'cancelled', queuedAt: 1 }, 'keep'],
		['cancelled with a move after it started', { status: 'cancelled', queuedAt: 1, startedAt: 2, movedTo }, 'keep'],
		['succeeded', { status: 'succeeded', queuedAt: 1, startedAt: 2 }, 'keep'],
		['failed', { status: 'failed', queuedAt: 1, startedAt: 2 }, 'keep'],
		['interrupted', { status: 'interrupted', queuedAt: 1, startedAt: 2 }, 'keep']
	] satisfies Array<[string, End, HoldAtEnd]>)('%s: %s', (_, run, end) => {
		expect(holdAtEnd(run)).toBe(end);
	});
});

describe('a hold read back from the device', () => {
	const hold = { poolId: 'pool-1', profileId: 'cloud', cents: 15, since: 1000, claimed: false };
	it.each([
		['as written', hold, hold],
		['claimed by a tab', { ...hold, claimed: true }, { ...hold, claimed: true }],
		['its price as text', { ...hold, cents: '15' }, null],
		['no price', { ...hold, cents: 0 }, null],
		['a fraction of a cent', { ...hold, cents: 1.5 }, null],
		['no start of counting', { ...hold, since: null }, null],
		['no claim', { poolId: 'pool-1', profileId: 'cloud', cents: 15, since: 1000 }, null],
		['no pool', { ...hold, poolId: 7 }, null],
		['not a record', 'poolhold', null],
		['nothing', null, null]
	] as const)('%s', (_, stored, read) => {
		expect(parseStoredHold(stored)).toEqual(read);
	});
});
