import { describe, expect, it } from 'vitest';
import { queueStatusWords } from './queue-words';

describe('queueStatusWords', () => {
	it.each([
		['IN_QUEUE', 'waiting in the queue'],
		['IN_PROGRESS', 'running'],
		['COMPLETED', 'finished'],
		['in_progress', 'running'],
		['PENDING_REVIEW', 'pending review'],
		['', 'no answer from the queue yet'],
		[undefined, 'no answer from the queue yet']
	])('%s reads "%s"', (status, words) => {
		expect(queueStatusWords(status)).toBe(words);
	});
});
