import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInputAsync } from './property';
import type { FuzzTarget } from './targets';

const target = (parse: FuzzTarget['parse']): FuzzTarget => ({ name: 'example', async: true, arbitrary: fc.constant(null), parse });

describe('the fuzz property for a reader that answers later', () => {
	it.each<[string, FuzzTarget['parse'], string | undefined]>([
		['a typed error holds', async () => ({ ok: false, kind: 'corrupt', message: 'The file is cut off.' }), undefined],
		['a value holds', async () => ({ ok: true, texts: {} }), undefined],
		[
			'a rejected promise breaks it',
			() => Promise.reject(new RangeError('offset is outside the bounds')),
			'threw RangeError: offset is outside the bounds'
		],
		['a failure without a message breaks it', async () => ({ ok: false }), 'returned {ok: false} without a message or a typed error']
	])('%s', async (_name, parse, reason) => {
		expect(await checkInputAsync(target(parse), Uint8Array.of(1, 2, 3))).toBe(reason);
	});
});
