import { describe, expect, it } from 'vitest';
import { afterFromHash, afterSubmit, afterUpload, MAX_ATTEMPTS, pickRecordedJob, retryAfterMs, type Exchange } from './v2-idempotency';

const answer = (status: number, code: string | null = null, retryAfter: number | null = null): Exchange => ({
	kind: 'answer',
	status,
	code,
	retryAfterMs: retryAfter
});
const dropped: Exchange = { kind: 'no-answer' };

describe('the upload decision', () => {
	it.each([
		['a from-hash hit (contract 201)', answer(201), 'use'],
		['a from-hash hit (proxy 200)', answer(200), 'use'],
		['a miss (404 blob_not_found)', answer(404, 'blob_not_found'), 'upload'],
		['no answer: send the bytes', dropped, 'upload'],
		['unauthorized', answer(401, 'unauthorized'), 'fail']
	])('from-hash: %s → %s', (_, a, next) => {
		expect(afterFromHash(a).next).toBe(next);
	});

	it.each([
		['201 new blob', answer(201), 1, { next: 'use' }],
		['200 dedup hit', answer(200), 1, { next: 'use' }],
		['202 still scanning: poll', answer(202, null, 500), 1, { next: 'poll', afterMs: 500 }],
		['409 hash_mismatch: start over', answer(409, 'hash_mismatch'), 1, { next: 'rehash' }],
		['409 in flight: same key after Retry-After', answer(409, 'idempotency_conflict', 2000), 1, { next: 'retry', afterMs: 2000 }],
		['a drop: same key after backoff', dropped, 2, { next: 'retry', afterMs: 300 }],
		['a drop, too many times', dropped, MAX_ATTEMPTS, { next: 'fail' }],
		['proxy reuse on a retry: start over', answer(422, 'idempotency_key_reuse'), 2, { next: 'rehash' }],
		['payload too large', answer(413, 'payload_too_large'), 1, { next: 'fail' }]
	])('upload: %s', (_, a, attempt, step) => {
		expect(afterUpload(a, attempt, 300)).toEqual(step);
	});
});

describe('the submit state machine', () => {
	it.each([
		['201 created', answer(201), 1, { next: 'accepted' }],
		['200 replayed (contract)', answer(200), 2, { next: 'accepted' }],
		['409 in flight: same key after Retry-After', answer(409, 'idempotency_conflict', 3000), 2, { next: 'retry', afterMs: 3000 }],
		['429 queue_full: same key after Retry-After', answer(429, 'queue_full', 5000), 1, { next: 'retry', afterMs: 5000 }],
		['409 without a readable Retry-After: backoff', answer(409, 'idempotency_conflict'), 2, { next: 'retry', afterMs: 250 }],
		['a drop: same key', dropped, 1, { next: 'retry', afterMs: 250 }],
		['a 502: same key', answer(502, 'upstream_error'), 1, { next: 'retry', afterMs: 250 }],
		['proxy 422 reuse on a retry: find the recorded job', answer(422, 'idempotency_key_reuse'), 2, { next: 'find-recorded' }],
		['422 reuse on a first send: a fault, not a retry', answer(422, 'idempotency_key_reuse'), 1, { next: 'fail' }],
		['422 invalid_workflow: to the fields', answer(422, 'invalid_workflow'), 1, { next: 'rejected' }],
		['402 insufficient_credits', answer(402, 'insufficient_credits'), 1, { next: 'fail' }],
		['a drop, too many times', dropped, MAX_ATTEMPTS, { next: 'fail' }]
	])('%s', (_, a, attempt, step) => {
		expect(afterSubmit(a, { attempt }, 250)).toEqual(step);
	});

	it('on the proxy, a 422 reuse on the first send of this call is a resend of a recorded submit', () => {
		expect(afterSubmit(answer(422, 'idempotency_key_reuse'), { attempt: 1, sentBefore: true }, 250)).toEqual({ next: 'find-recorded' });
	});

	it('finds the newest job created since the submit was stored, not one a run here claims', () => {
		const stored = Date.parse('2026-11-24T10:00:00Z');
		const jobs = [
			{ id: 'new', createdAt: '2026-11-24T10:00:02.000001+00:00' },
			{ id: 'mine', createdAt: '2026-11-24T10:00:03Z' },
			{ id: 'old', createdAt: '2026-11-24T09:00:00+00:00' }
		];
		expect(pickRecordedJob(jobs, stored, new Set(['mine']))).toBe('new');
		expect(pickRecordedJob(jobs.slice(2), stored, new Set())).toBeNull();
	});

	it.each([
		['5', 5000],
		['0', 0],
		[null, null],
		['soon', null]
	])('Retry-After %s → %s ms', (h, ms) => {
		expect(retryAfterMs(h)).toBe(ms);
	});
});
