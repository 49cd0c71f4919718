import { describe, expect, it } from 'vitest';
import { overLimit, readLimits } from './sweep-limit';

describe('the limits on one sweep', () => {
	it('ask first for more runs than the limit', () => {
		expect(overLimit({ count: 120, credits: null, paid: false }, { runs: 100, credits: null })).toBe(
			'120 runs is more than your limit of 100 runs for one sweep.'
		);
		expect(overLimit({ count: 100, credits: null, paid: false }, { runs: 100, credits: null })).toBeNull();
	});

	it('ask first for more expected spend than the limit, and when a paid sweep’s spend is not known', () => {
		expect(overLimit({ count: 6, credits: 30, paid: true }, { runs: null, credits: 20 })).toContain('about 30 credits');
		expect(overLimit({ count: 6, credits: null, paid: true }, { runs: null, credits: 20 })).toContain('spend is not known');
		expect(overLimit({ count: 6, credits: 10, paid: true }, { runs: null, credits: 20 })).toBeNull();
	});

	it('are read back as saved, and unreadable ones give the defaults', () => {
		expect(readLimits('{"runs":null,"credits":5}')).toEqual({ runs: null, credits: 5 });
		expect(readLimits('not json')).toEqual({ runs: 100, credits: null });
	});
});
