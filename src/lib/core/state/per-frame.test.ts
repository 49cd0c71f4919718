import { describe, expect, it } from 'vitest';
import { perFrame } from './per-frame';

/** A batch whose frames tick only when the test says so. */
function batchWithManualFrames() {
	const applied: number[][] = [];
	const frames: Array<() => void> = [];
	const batch = perFrame<number>(
		(items) => applied.push(items),
		(tick) => frames.push(tick)
	);
	return { applied, batch, nextFrame: () => frames.shift()!() };
}

describe('perFrame', () => {
	it('applies the first item at once and the rest of the frame together at the next frame', () => {
		const { applied, batch, nextFrame } = batchWithManualFrames();
		batch.push(1);
		batch.push(2);
		batch.push(3);
		expect(applied).toEqual([[1]]);
		nextFrame();
		expect(applied).toEqual([[1], [2, 3]]);
		nextFrame(); // a frame with nothing waiting closes the batch
		batch.push(4);
		expect(applied).toEqual([[1], [2, 3], [4]]);
	});

	it('forgets what waits on drop', () => {
		const { applied, batch, nextFrame } = batchWithManualFrames();
		batch.push(1);
		batch.push(2);
		batch.drop();
		nextFrame();
		expect(applied).toEqual([[1]]);
	});
});
