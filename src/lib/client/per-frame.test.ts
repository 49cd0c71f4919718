import { describe, expect, it } from 'vitest';
import { perFrame } from './per-frame';

describe('perFrame', () => {
	it('applies the first item at once and the rest of the frame together at the next frame', () => {
		const applied: number[][] = [];
		const frames: Array<() => void> = [];
		const batch = perFrame<number>(
			(items) => applied.push(items),
			(tick) => frames.push(tick)
		);
		batch.push(1);
		batch.push(2);
		batch.push(3);
		expect(applied).toEqual([[1]]);
		frames.shift()!();
		expect(applied).toEqual([[1], [2, 3]]);
		frames.shift()!(); // a frame with nothing waiting closes the batch
		batch.push(4);
		expect(applied).toEqual([[1], [2, 3], [4]]);
	});

	it('forgets what waits on drop', () => {
		const applied: number[][] = [];
		const frames: Array<() => void> = [];
		const batch = perFrame<number>(
			(items) => applied.push(items),
			(tick) => frames.push(tick)
		);
		batch.push(1);
		batch.push(2);
		batch.drop();
		frames.shift()!();
		expect(applied).toEqual([[1]]);
	});
});
