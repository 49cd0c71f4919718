import { describe, expect, it } from 'vitest';
import type { Star } from '../protocol/star';
import { bytesOwner, keptByStars, withStar } from './stars';

describe('stars', () => {
	const stars = new Map<string, Star>([
		['run-a', { runId: 'run-a', run: true, outputs: [], at: 1 }],
		['run-b', { runId: 'run-b', run: false, outputs: [2], at: 1 }],
		['m1', { runId: 'm1', run: false, outputs: [0], at: 1 }]
	]);

	it('keeps every output of a starred run and each starred output, nothing else', () => {
		expect(keptByStars('output:run-a:0', stars)).toBe(true);
		expect(keptByStars('output:run-a:7', stars)).toBe(true);
		expect(keptByStars('output:run-b:2', stars)).toBe(true);
		expect(keptByStars('output:run-b:1', stars)).toBe(false);
		expect(keptByStars('output:run-c:0', stars)).toBe(false);
		expect(keptByStars('models:bytes:m1:body', stars)).toBe(true);
		expect(keptByStars('models:bytes:m2:body', stars)).toBe(false);
		expect(keptByStars('run:run-a', stars)).toBe(false);
	});

	it.each<[string, ReturnType<typeof bytesOwner>]>([
		['output:run-a:3', { runId: 'run-a', output: 3 }],
		['models:bytes:m1:body', { runId: 'm1', output: null }],
		['models:bytes:m1', { runId: 'm1', output: null }],
		['run:run-a', null],
		['sweepthumb:s1:0', null]
	])('knows whose saved bytes %s are', (key, owner) => {
		expect(bytesOwner(key)).toEqual(owner);
	});

	it('adds and takes away stars, and is gone when nothing is starred', () => {
		const one = withStar(undefined, 'r', { output: 3, on: true }, 5);
		expect(one).toEqual({ runId: 'r', run: false, outputs: [3], at: 5 });
		const both = withStar(one!, 'r', { on: true }, 6);
		expect(both).toEqual({ runId: 'r', run: true, outputs: [3], at: 6 });
		expect(withStar(withStar(both!, 'r', { on: false }, 7)!, 'r', { output: 3, on: false }, 8)).toBeNull();
	});
});
