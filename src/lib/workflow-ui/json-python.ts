/**
 * JSON as ComfyUI's server writes it. Python's `json.dumps` emits `NaN`, `Infinity` and `-Infinity`,
 * which `JSON.parse` refuses. One pass over the text (outside strings) rewrites those tokens,
 * measures the nesting depth, then the native parser does the rest, so a large file costs little
 * more than `JSON.parse`. What a browser sends for these values is what `JSON.stringify` makes of
 * them: `null`. So `NaN` becomes `null` here, and `Infinity` stays a number (`1e999`), which
 * `JSON.stringify` also sends as `null`.
 */
import type { Json } from '../wire/json';

/** Deeper than any real workflow nests (subgraph definitions nest about 10 levels per subgraph). */
export const MAX_JSON_DEPTH = 512;

export type PythonJsonResult = { ok: true; value: Json } | { ok: false; message: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const N = 0x4e;
const I = 0x49;
const MINUS = 0x2d;

function lineAndColumn(text: string, position: number): string {
	const before = text.slice(0, position);
	const line = before.split('\n').length;
	const column = position - before.lastIndexOf('\n');
	return `line ${line}, column ${column}`;
}

/** Parses JSON that may hold Python's non-finite numbers; never throws. */
export function parsePythonJson(text: string, maxDepth = MAX_JSON_DEPTH): PythonJsonResult {
	let depth = 0;
	let out: string[] | undefined;
	let copiedTo = 0;
	const length = text.length;
	for (let i = 0; i < length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			// Skip the string: the next quote not escaped.
			i++;
			while (i < length) {
				const s = text.charCodeAt(i);
				if (s === BACKSLASH) i += 2;
				else if (s === QUOTE) break;
				else i++;
			}
		} else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
			if (++depth > maxDepth) {
				return { ok: false, message: `The JSON nests deeper than ${maxDepth} levels (at ${lineAndColumn(text, i)}); no workflow does.` };
			}
		} else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
			depth--;
		} else if (c === N && text.startsWith('NaN', i)) {
			out ??= [];
			out.push(text.slice(copiedTo, i), 'null');
			copiedTo = i + 3;
			i += 2;
		} else if (c === I && text.startsWith('Infinity', i)) {
			out ??= [];
			out.push(text.slice(copiedTo, i), '1e999');
			copiedTo = i + 8;
			i += 7;
		} else if (c === MINUS && text.startsWith('-Infinity', i)) {
			out ??= [];
			out.push(text.slice(copiedTo, i), '-1e999');
			copiedTo = i + 9;
			i += 8;
		}
	}
	const source = out ? out.join('') + text.slice(copiedTo) : text;
	try {
		return { ok: true, value: JSON.parse(source) as Json };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		// Positions refer to the rewritten text only when a token was rewritten before them; the
		// message still names what is wrong.
		const at = /position (\d+)/.exec(message);
		const where = at && !out ? ` at ${lineAndColumn(text, Number(at[1]))}` : '';
		return { ok: false, message: `This is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}${where}.` };
	}
}
