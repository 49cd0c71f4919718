import { describe, expect, it } from 'vitest';
import { Unanswered } from './unanswered';

describe('a server that does not answer', () => {
	it('is read again after 2 s, then longer each time in a row up to 30 s, and at once after it answers', () => {
		const down = new Unanswered({ baseMs: 2000, maxMs: 30_000 }, () => 0.5);
		expect(down.waiting('p', 0)).toBe(false);
		down.failed('p', 0);
		expect(down.waiting('p', 1000)).toBe(true);
		const firstWait = [...Array(40).keys()].map((s) => s * 1000).find((t) => !down.waiting('p', t))!;
		down.failed('p', firstWait);
		const secondWait = [...Array(80).keys()].map((s) => firstWait + s * 1000).find((t) => !down.waiting('p', t))! - firstWait;
		expect(secondWait).toBeGreaterThan(firstWait);
		for (let i = 0; i < 10; i++) down.failed('p', 0);
		expect(down.waiting('p', 30_001)).toBe(false);
		down.answered('p');
		expect(down.waiting('p', 0)).toBe(false);
	});

	it('keeps each profile apart', () => {
		const down = new Unanswered();
		down.failed('a', 0);
		expect(down.waiting('a', 1)).toBe(true);
		expect(down.waiting('b', 1)).toBe(false);
	});
});
