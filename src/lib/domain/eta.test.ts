import { describe, expect, it } from 'vitest';
import { estimateRemaining, formatDuration } from './eta';

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
