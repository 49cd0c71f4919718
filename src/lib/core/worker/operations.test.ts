import { describe, expect, it } from 'vitest';
import { Operations } from './operations';

describe('Operations', () => {
	it('aborts the signal of a running operation when it is cancelled', () => {
		const ops = new Operations();
		const { signal } = ops.begin('a');
		expect(signal?.aborted).toBe(false);
		ops.cancel('a');
		expect(signal?.aborted).toBe(true);
	});

	it('aborts an operation whose cancel arrived before it began', () => {
		const ops = new Operations();
		ops.cancel('b');
		expect(ops.begin('b').signal?.aborted).toBe(true);
	});

	it('leaves other operations running, and gives no signal without an id', () => {
		const ops = new Operations();
		const a = ops.begin('a');
		const c = ops.begin('c');
		ops.cancel('a');
		expect(c.signal?.aborted).toBe(false);
		a.end();
		expect(ops.begin(undefined).signal).toBeUndefined();
	});
});
