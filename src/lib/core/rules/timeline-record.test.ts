import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../protocol/run-kernel';
import { readTimelineRecord, storedEntry } from './timeline-record';

const entry: TimelineEntry = {
	id: 'a',
	kind: 'workflow',
	profileId: 'p',
	title: 'Run a',
	subject: null,
	status: 'succeeded',
	createdAt: 1_700_000_000_000,
	durationMs: 8000,
	seed: 42,
	credits: null,
	thumbnail: 0,
	modelThumb: null,
	elsewhere: false,
	href: '/runs/a',
	promptId: 'job-a'
};

describe('a stored timeline entry', () => {
	it('carries the search text, which reading takes off the entry the page gets', () => {
		const stored = storedEntry(entry, '\n\u0001a red boat');
		expect(stored.searchText).toBe('\n\u0001a red boat');
		expect(readTimelineRecord(structuredClone(stored))).toEqual({ entry, text: '\n\u0001a red boat' });
	});

	it('is read without a text when written by an older version', () => {
		expect(readTimelineRecord(structuredClone(entry))).toEqual({ entry, text: null });
	});

	it('keeps fields this version does not know, as the list always did', () => {
		expect(readTimelineRecord({ ...entry, later: 1 })?.entry).toEqual({ ...entry, later: 1 });
	});

	it('is refused when it cannot be an entry', () => {
		for (const value of [null, 'a', [entry], { id: 'gone' }, { ...entry, id: '' }, { ...entry, kind: 'x' }, { ...entry, createdAt: NaN }])
			expect(readTimelineRecord(value)).toBeNull();
	});

	it('loses a text that is not one (the chunk separator in it, or too long) but stays listed', () => {
		expect(readTimelineRecord({ ...entry, searchText: 'a\u001eb' })).toEqual({ entry, text: null });
		expect(readTimelineRecord({ ...entry, searchText: 'x'.repeat(300_000) })).toEqual({ entry, text: null });
		expect(readTimelineRecord({ ...entry, searchText: 7 })).toEqual({ entry, text: null });
	});
});
