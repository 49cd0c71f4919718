import { describe, expect, it } from 'vitest';
import { cancelManyWords, jobCancelWords } from './cancel-many-words';

describe('the words for a Cancel of many jobs', () => {
	it('counts only what the server confirmed', () => {
		const words = cancelManyWords({
			via: 'batch',
			jobs: [
				{ promptId: 'a', outcome: { kind: 'removed', via: 'job-cancel' } },
				{ promptId: 'b', outcome: { kind: 'interrupted', via: 'job-cancel' } },
				{ promptId: 'c', outcome: { kind: 'still-waiting', via: 'job-cancel' } },
				{ promptId: 'd', problem: 'The server could not be reached.' }
			]
		});
		expect(words).toBe('The server was asked to cancel 4 jobs in one batch call and confirmed 2 cancelled; 2 not (see each job).');
		expect(words).not.toMatch(/^Cancelled/);
	});

	it('says how the server was asked', () => {
		const words = cancelManyWords(
			{ via: 'one-by-one', jobs: [{ promptId: 'a', outcome: { kind: 'removed', via: 'queue-delete' } }] },
			'Local'
		);
		expect(words).toBe('Local was asked to cancel 1 job one by one and confirmed 1 cancelled.');
	});

	it('says per job what the server did, or why it was not asked', () => {
		expect(jobCancelWords({ promptId: 'a', outcome: { kind: 'stopping', via: 'interrupt' } })).toMatch(/still running/);
		expect(jobCancelWords({ promptId: 'a', outcome: { kind: 'finished-first' } })).toMatch(/already ended/);
		expect(jobCancelWords({ promptId: 'a', problem: 'offline' })).toBe('not asked: offline');
	});
});
