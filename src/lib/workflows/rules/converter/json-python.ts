/**
 * JSON as ComfyUI's server writes it. Python's `json.dumps` emits `NaN`, `Infinity` and `-Infinity`,
 * which `JSON.parse` refuses; text the native parser refuses is searched for those tokens outside
 * strings, they are rewritten, and the native parser tries again. What a browser sends for these values is what `JSON.stringify` makes of
 * them: `null`. So `NaN` becomes `null` here, and `Infinity` stays a number (`1e999`), which
 * `JSON.stringify` also sends as `null`.
 */
import type { Json } from '../../../core/protocol/json';

/** Deeper than any real workflow nests (subgraph definitions nest about 10 levels per subgraph). */
export const MAX_JSON_DEPTH = 512;

export type PythonJsonResult = { ok: true; value: Json } | { ok: false; message: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const N = 0x4e;
const I = 0x49;
const MINUS = 0x2d;

function lineAndColumn(text: string, position: number): string {
	const before = text.slice(0, position);
	const line = before.split('\n').length;
	const column = position - before.lastIndexOf('\n');
	return `line ${line}, column ${column}`;
}

/** Rewrites Python's non-finite tokens outside strings into JSON the native parser accepts. */
function rewriteNonFinite(text: string): string {
	const out: string[] = [];
	let copiedTo = 0;
	const length = text.length;
	for (let i = 0; i < length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			// Skip the string: up to the next quote not escaped.
			i++;
			while (i < length) {
				const s = text.charCodeAt(i);
				if (s === BACKSLASH) i += 2;
				else if (s === QUOTE) break;
				else i++;
			}
		} else if (c === N && text.startsWith('NaN', i)) {
			out.push(text.slice(copiedTo, i), 'null');
			copiedTo = i + 3;
			i += 2;
		} else if (c === I && text.startsWith('Infinity', i)) {
			out.push(text.slice(copiedTo, i), '1e999');
			copiedTo = i + 8;
			i += 7;
		} else if (c === MINUS && text.startsWith('-Infinity', i)) {
			out.push(text.slice(copiedTo, i), '-1e999');
			copiedTo = i + 9;
			i += 8;
		}
	}
	return copiedTo === 0 ? text : out.join('') + text.slice(copiedTo);
}

/** Whether any array or object nests deeper than `max`, walked without recursion. */
function nestsDeeper(value: Json, max: number): boolean {
	const stack: Array<[Json, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [v, depth] = stack.pop()!;
		if (typeof v !== 'object' || v === null) continue;
		if (depth + 1 > max) return true;
		if (Array.isArray(v)) {
			for (let i = 0; i < v.length; i++) {
				const child = v[i]!;
				if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
			}
		} else {
			for (const key of Object.keys(v)) {
				const child = v[key]!;
				if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
			}
		}
	}
	return false;
}

function syntaxError(text: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const at = /position (\d+)/.exec(message);
	const where = at ? ` at ${lineAndColumn(text, Number(at[1]))}` : '';
	return `This is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}${where}.`;
}

/**
 * Parses JSON that may hold Python's non-finite numbers; never throws. The native parser goes
 * first (it does not recurse, so any depth is safe); only text it refuses is searched for the
 * Python tokens. The depth limit protects what comes after (`JSON.stringify` does recurse).
 */
export function parsePythonJson(text: string, maxDepth = MAX_JSON_DEPTH): PythonJsonResult {
	let value: Json;
	try {
		value = JSON.parse(text) as Json;
	} catch (error) {
		const rewritten = /NaN|Infinity/.test(text) ? rewriteNonFinite(text) : text;
		if (rewritten === text) return { ok: false, message: syntaxError(text, error) };
		try {
			value = JSON.parse(rewritten) as Json;
		} catch (again) {
			// Positions in the rewritten text are close to, not exactly, those of the file.
			return { ok: false, message: syntaxError(rewritten, again) };
		}
	}
	if (nestsDeeper(value, maxDepth)) return { ok: false, message: `The JSON nests deeper than ${maxDepth} levels; no workflow does.` };
	return { ok: true, value };
}
