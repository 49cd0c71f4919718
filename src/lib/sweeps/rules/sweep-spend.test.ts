import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../core/protocol/run-kernel';
import { expectedCredits } from './sweep-spend';

const run = (subject: string, credits: number | null, createdAt = 1) => ({ kind: 'model', subject, credits, createdAt }) as TimelineEntry;

describe('a model sweep’s expected spend', () => {
	it('comes from what past runs of the same models reported: each model’s median, times its cells', () => {
		const past = [run('a/x', 2), run('a/x', 4), run('a/x', 100), run('b/y', 1), run('c/z', 9)];
		expect(expectedCredits(past, ['a/x', 'b/y'], 6)).toEqual({
			credits: 15,
			words: 'Spend: about 15 credits, from what 4 past runs of these models reported.'
		});
	});

	it('is not known, and says for which model, when a model has no run that reported a charge', () => {
		const spend = expectedCredits([run('a/x', 2), run('b/y', null)], ['a/x', 'b/y'], 4);
		expect(spend.credits).toBeNull();
		expect(spend.words).toContain('no past run of b/y here reported what it used');
	});
});
