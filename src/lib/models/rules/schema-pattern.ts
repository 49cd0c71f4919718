/**
 * A schema's `pattern`, matched in linear time. Patterns come from a server, and the browser's own
 * engine backtracks (`(x+x+)+y` took 169 s on one input), so they are matched by re2js, a port of RE2
 * (docs/decisions/0060-patterns-in-linear-time.md). ECMAScript syntax RE2 lacks (look-around,
 * back-references) is refused: such a pattern is not checked here, and the field says so.
 */
import { RE2JS } from 're2js';

export type CompiledPattern = { ok: true; test: (text: string) => boolean } | { ok: false; reason: string };

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), which RE2's `\s` (`[\t\n\f\r ]`) is narrower than. */
const SPACE = '\\t\\n\\x{0b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** ECMAScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes only `\n`). */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * An ECMAScript pattern (`u` flag, as JSON Schema means it) in RE2's syntax, or why it has none:
 * `\uXXXX` and `\u{X}` become `\x{X}`, `.` and `\s` keep their ECMAScript meaning.
 */
export function toRe2Syntax(pattern: string): { ok: true; source: string } | { ok: false; reason: string } {
	let out = '';
	let inClass = false;
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i]!;
		if (c === '\\') {
			const next = pattern[i + 1];
			if (next === undefined) return { ok: false, reason: 'it ends with a lone backslash' };
			if (next === 'u') {
				const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2));
				const plain = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
				if (braced) {
					out += `\\x{${braced[1]}}`;
					i += 1 + braced[0].length;
				} else if (plain) {
					out += `\\x{${plain[0]}}`;
					i += 5;
				} else return { ok: false, reason: 'it has a \\u escape RE2 cannot read' };
				continue;
			}
			if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
			else if (next === 'S') {
				if (inClass) return { ok: false, reason: 'it uses \\S inside a character class' };
				out += `[^${SPACE}]`;
			} else out += c + next;
			i++;
			continue;
		}
		if (inClass) {
			if (c === ']') inClass = false;
			out += c;
		} else if (c === '[') {
			inClass = true;
			out += c;
			// A `]` or `^]` first in a class is literal to RE2 but ends an empty class in ECMAScript.
			if (pattern[i + 1] === ']' || (pattern[i + 1] === '^' && pattern[i + 2] === ']'))
				return { ok: false, reason: 'it has an empty character class' };
		} else out += c === '.' ? DOT : c;
	}
	return { ok: true, source: out };
}

const compiled = new Map<string, CompiledPattern>();
/** Patterns are few per schema; the bound only keeps a hostile catalog from growing the cache forever. */
const MAX_CACHED = 512;

/** A pattern ready to test strings (unanchored, as JSON Schema's `pattern`), or why it cannot be. */
export function compilePattern(pattern: string): CompiledPattern {
	const known = compiled.get(pattern);
	if (known) return known;
	const result = compileUncached(pattern);
	if (compiled.size >= MAX_CACHED) compiled.clear();
	compiled.set(pattern, result);
	return result;
}

function compileUncached(pattern: string): CompiledPattern {
	try {
		new RegExp(pattern, 'u');
	} catch {
		return { ok: false, reason: 'it is not a valid regular expression' };
	}
	const syntax = toRe2Syntax(pattern);
	if (!syntax.ok) return syntax;
	try {
		const re = RE2JS.compile(syntax.source);
		return { ok: true, test: (text) => re.test(text) };
	} catch (error) {
		const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'refused';
		return { ok: false, reason: `the linear-time engine refuses it (${detail.slice(0, 80)})` };
	}
}
