/**
 * A model schema's `pattern` with nested quantifiers (`^(x+x+)+y$`) against a string of x's with no
 * `y`: the browser's backtracking RegExp doubles its time with every character (the form froze: 37 ms
 * at 20 characters, 408 ms at 26, 169 s for one fuzzed input). The form's validator matches patterns
 * with re2js (linear time). Baseline: the page's RegExp on 20 characters (bounded, so it finishes).
 * Targets: one validation of the form < 5 ms at 26 characters and < 50 ms at 100 000.
 */
import { InputValidator } from '../src/lib/models/rules/schema-validate';
import { check, report } from './support/report';
import { median } from './support/stats';

const PATTERN = '^(x+x+)+y$';
const schema = { type: 'object', properties: { code: { type: 'string', pattern: PATTERN } } };

function timeIt(runs: number, fn: () => void): number {
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t = performance.now();
		fn();
		samples.push(performance.now() - t);
	}
	return median(samples);
}

const native = (n: number) => timeIt(3, () => new RegExp(PATTERN, 'u').test('x'.repeat(n)));
const baseline = native(20);
console.log(`baseline: the page's RegExp, 20 characters: ${baseline.toFixed(1)} ms`);
console.log(`for scale: the page's RegExp, 22 characters: ${native(22).toFixed(1)} ms`);

const validator = new InputValidator(schema);
for (const [n, target] of [
	[26, 5],
	[1_000, 5],
	[100_000, 50]
] as const) {
	const input = { code: 'x'.repeat(n) };
	const errors = validator.validate(input);
	check(
		`a ${n}-character string of x's fails the pattern`,
		errors.length === 1 && errors[0]?.keyword === 'pattern',
		JSON.stringify(errors)
	);
	const ms = timeIt(9, () => validator.validate(input));
	console.log(`form validation, ${n} characters: ${ms.toFixed(3)} ms (target < ${target} ms)`);
	report({
		name: `form validation with pattern ${PATTERN}, ${n} characters (baseline: page RegExp at 20)`,
		figure: ms,
		unit: 'ms',
		baseline,
		target: `< ${target} ms`,
		met: ms < target
	});
}
check('a matching string passes', validator.validate({ code: 'xxxy' }).length === 0);
