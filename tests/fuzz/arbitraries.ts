/**
 * Hostile input shapes shared by the fuzz targets: names that are Object.prototype members, JSON
 * nested far past any real document, broken JSON text, and values of every type where one is expected.
 */
import fc from 'fast-check';
import { PROTO_NAMES as BASE_PROTO_NAMES } from '../../src/lib/core/protocol/prototype-names.fixture';

/** Names every plain object seems to have: a lookup that is not own-only finds them. */
export const PROTO_NAMES = [...BASE_PROTO_NAMES, 'propertyIsEnumerable', '__defineGetter__', '__lookupSetter__'];

export const protoName = fc.constantFrom(...PROTO_NAMES);

/** A key: often a prototype member, sometimes one of the words the parser looks for, else anything. */
export function hostileKey(known: string[] = []): fc.Arbitrary<string> {
	return fc.oneof(
		{ weight: 3, arbitrary: protoName },
		{ weight: known.length ? 3 : 0, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('') },
		{ weight: 2, arbitrary: fc.string({ maxLength: 10 }) }
	);
}

/** Any JSON scalar, with the numbers and strings that break naive code. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.constantFrom(0, -1, 2 ** 32, 2 ** 53, -(2 ** 53), 1e308, -1e-308),
	fc.string({ maxLength: 16 }),
	protoName
);

/** JSON values of bounded size whose object keys are hostile. */
export function jsonValue(known: string[] = [], maxDepth = 4): fc.Arbitrary<unknown> {
	const { value } = fc.letrec<{ value: unknown }>((tie) => ({
		value: fc.oneof(
			{ depthSize: 'small', maxDepth },
			scalar,
			fc.array(tie('value'), { maxLength: 4 }),
			fc.dictionary(hostileKey(known), tie('value'), { maxKeys: 5, noNullPrototype: true })
		)
	}));
	return value;
}

/** Nesting far past every depth limit, as text (the regressions hold texts deep enough to overflow a stack). */
export const deepJsonText: fc.Arbitrary<string> = fc
	.tuple(fc.integer({ min: 50, max: 2_000 }), fc.constantFrom('[', '{"a":', '{"__proto__":', '{"prompt":', '{"inputs":'))
	.map(([n, open]) => open.repeat(n) + '1' + (open === '[' ? ']' : '}').repeat(n));

/** JSON text nested `levels` deep: far enough to overflow any recursive walk, JSON.stringify and structuredClone. */
export function stackOverflowText(levels = 20_000, open = '{"a":'): string {
	return open.repeat(levels) + '1' + (open === '[' ? ']' : '}').repeat(levels);
}

/** JSON text of `value`, or broken on purpose: cut off, a character flipped, not JSON at all, or nested too deep. */
export function jsonText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
	const text = value.map((v) => JSON.stringify(v) ?? 'null');
	return fc.oneof(
		{ weight: 8, arbitrary: text },
		{ weight: 2, arbitrary: fc.tuple(text, fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))) },
		{
			weight: 1,
			arbitrary: fc.tuple(text, fc.nat(), fc.string({ minLength: 1, maxLength: 2 })).map(([t, n, c]) => {
				const at = n % (t.length + 1);
				return t.slice(0, at) + c + t.slice(at + 1);
			})
		},
		{ weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
		{ weight: 1, arbitrary: deepJsonText }
	);
}

/** What JSON.parse would give for `value` (own `__proto__` keys included), as the parsers see it. */
export function asParsedJson<T>(value: T): T {
	return JSON.parse(JSON.stringify(value) ?? 'null') as T;
}
