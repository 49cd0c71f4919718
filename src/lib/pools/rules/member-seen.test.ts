import { describe, expect, it } from 'vitest';
import {
	answersAgainSince,
	BACK_NOTICE_MS,
	NEVER_SEEN,
	parseMemberSeen,
	seenAfter,
	worthKeeping,
	type MemberSeen,
	type QueueRead
} from './member-seen';

const answered = (at: number, running: string[] = []): QueueRead => ({ kind: 'answered', running, at });
const silent = (at: number): QueueRead => ({ kind: 'silent', at });
const after = (...reads: QueueRead[]): MemberSeen => reads.reduce(seenAfter, NEVER_SEEN);

describe('what a member was seen doing', () => {
	it.each([
		['never read', [], { running: [], readAt: null, silentSince: null, backAt: null }],
		['answering', [answered(1, ['p1'])], { running: ['p1'], readAt: 1, silentSince: null, backAt: null }],
		[
			'silent after an answer: its running job is the last word',
			[answered(1, ['p1']), silent(2), silent(3)],
			{ running: ['p1'], readAt: 1, silentSince: 2, backAt: null }
		],
		['back after being silent', [answered(1, ['p1']), silent(2), answered(5)], { running: [], readAt: 5, silentSince: null, backAt: 5 }],
		['back, and answering since', [silent(2), answered(5), answered(7)], { running: [], readAt: 7, silentSince: null, backAt: 5 }],
		[
			'back, then silent again: no longer back',
			[silent(2), answered(5), silent(8)],
			{ running: [], readAt: 5, silentSince: 8, backAt: null }
		]
	] as const)('%s', (_, reads, seen) => {
		expect(after(...reads)).toEqual(seen);
	});

	it.each([
		['switched off: says so until switched on', false, 10 * BACK_NOTICE_MS, 5],
		['on: says so for a minute', true, 5 + BACK_NOTICE_MS - 1, 5],
		['on: not after that minute', true, 5 + BACK_NOTICE_MS, null]
	] as const)('answers again, %s', (_, enabled, now, since) => {
		expect(answersAgainSince(after(silent(2), answered(5)), enabled, now)).toBe(since);
	});

	it('is written when anything read from it changes, and an unchanged answer only now and then', () => {
		const stored = after(answered(1_000, ['p1']));
		expect(worthKeeping(stored, seenAfter(stored, answered(3_000, ['p1'])), 15_000)).toBe(false);
		expect(worthKeeping(stored, seenAfter(stored, answered(16_000, ['p1'])), 15_000)).toBe(true);
		expect(worthKeeping(stored, seenAfter(stored, answered(3_000, ['p2'])), 15_000)).toBe(true);
		expect(worthKeeping(stored, seenAfter(stored, silent(3_000)), 15_000)).toBe(true);
	});

	it.each([
		[
			'a record as written',
			{ running: ['p1'], readAt: 1, silentSince: null, backAt: 2 },
			{ running: ['p1'], readAt: 1, silentSince: null, backAt: 2 }
		],
		['not an object', 'p1', null],
		['running not a list of job ids', { running: [1], readAt: 1, silentSince: null, backAt: null }, null],
		['a time that is not a number', { running: [], readAt: '1', silentSince: null, backAt: null }, null],
		['a field missing', { running: [], readAt: 1, silentSince: null }, null]
	])('reads a stored record back: %s', (_, stored, read) => {
		expect(parseMemberSeen(stored)).toEqual(read);
	});
});
