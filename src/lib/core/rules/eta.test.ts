import { describe, expect, it } from 'vitest';
import { estimateRemaining, formatDuration, queuePosition, recentWorkflowDurations } from './eta';
import type { TimelineEntry } from '../protocol/run-kernel';
import { timelineEntry } from '../protocol/timeline-entry.fixture';

describe('the wait estimate of a queued run', () => {
	it('multiplies the median recent duration by the rounds until it is done', () => {
		expect(estimateRemaining({ position: 0, recentDurations: [10_000, 12_000, 60_000] })).toBe(12_000);
		expect(estimateRemaining({ position: 2, recentDurations: [10_000] })).toBe(30_000);
		expect(estimateRemaining({ position: 3, recentDurations: [10_000], concurrency: 2 })).toBe(20_000);
	});

	it('says nothing when nothing is known', () => {
		expect(estimateRemaining({ position: 1, recentDurations: [] })).toBeUndefined();
		expect(estimateRemaining({ position: 1, recentDurations: [Number.NaN, -5] })).toBeUndefined();
	});

	it('formats durations for people', () => {
		expect(formatDuration(4_400)).toBe('4 s');
		expect(formatDuration(125_000)).toBe('2 min 5 s');
		expect(formatDuration(3_725_000)).toBe('1 h 2 min');
	});
});

describe('the queue position of a job', () => {
	const queue = { running: [{ promptId: 'r1' }, { promptId: 'r2' }], pending: [{ promptId: 'p1' }, { promptId: 'p2' }] };
	it.each([
		['a running job', 'r2', 0],
		['the first waiting job, behind the running ones', 'p1', 2],
		['the second waiting job', 'p2', 3],
		['a job the queue does not list', 'gone', null]
	])('%s', (_, promptId, expected) => {
		expect(queuePosition(queue, promptId)).toBe(expected);
	});

	it('is 0 for the first waiting job of an idle queue', () => {
		expect(queuePosition({ running: [], pending: [{ promptId: 'p1' }] }, 'p1')).toBe(0);
	});
});

describe('recent durations of the same workflow', () => {
	const entry = (over: Partial<TimelineEntry>): TimelineEntry =>
		timelineEntry({ profileId: 'p', title: 'Portrait', subject: 'wf1', createdAt: 0, durationMs: 1000, ...over });
	const entries = [
		entry({ id: 'old', createdAt: 1, durationMs: 4000 }),
		entry({ id: 'new', createdAt: 3, durationMs: 6000 }),
		entry({ id: 'self', createdAt: 4, durationMs: 9000 }),
		entry({ id: 'failed', createdAt: 5, status: 'failed' }),
		entry({ id: 'unfinished', createdAt: 6, durationMs: null }),
		entry({ id: 'other', createdAt: 7, subject: 'wf2', title: 'Other' }),
		entry({ id: 'model', createdAt: 8, kind: 'model' }),
		entry({ id: 'unsaved', createdAt: 2, subject: null, durationMs: 5000 })
	];

	it('takes succeeded runs of the same saved workflow, newest first, without the run itself', () => {
		expect(recentWorkflowDurations(entries, { id: 'self', workflowId: 'wf1', title: 'Portrait' })).toEqual([6000, 4000]);
	});

	it('matches by title when the run has no saved workflow', () => {
		expect(recentWorkflowDurations(entries, { id: 'self', workflowId: null, title: 'Portrait' })).toEqual([6000, 5000, 4000]);
	});
});
