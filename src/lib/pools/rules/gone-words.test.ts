import { describe, expect, it } from 'vitest';
import { goneWords } from './gone-words';

describe('goneWords', () => {
	it('says what happened when the member did not answer the last read', () => {
		expect(goneWords('GPU C', { answered: false, moved: 2, stopped: 1, stranded: 0, left: 0 })).toBe(
			'GPU C is switched off in this pool. 2 runs waiting there went to the other members. The run it was running ended there and was not sent again: run it again if you want it.'
		);
	});

	it('says the member answered after all, and what stays there', () => {
		expect(goneWords('GPU C', { answered: true, moved: 1, stopped: 0, stranded: 0, left: 1 })).toBe(
			'GPU C is switched off in this pool. It answered when its queue was read once more. 1 run waiting there was taken off it and went to the other members. The run it is running (or that ended there) stays there, followed as usual.'
		);
	});
});
