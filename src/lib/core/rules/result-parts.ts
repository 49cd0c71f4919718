/**
 * A model's JSON result as a person reads it: the media are shown by the viewer (found elsewhere),
 * prose as text, short facts (a seed, a count, a flag) as labelled values, and only what is really
 * data (objects, long lists) as a JSON tree. Pure: no DOM.
 */
import type { Json } from '../../core/protocol/json';

export interface ResultParts {
	/** Prose to show as text (line breaks kept), labelled by where it sits. */
	texts: Array<{ label: string; text: string }>;
	/** Short facts: a seed, a count, a flag, a short string. */
	values: Array<{ label: string; value: string }>;
	/** Structured data, for a tree. */
	data: Array<{ label: string; value: Json }>;
}

/** Keys whose string is the answer itself, however short. */
const PROSE_KEYS = /^(output|text|answer|content|message|completion|reply|response|transcript|transcription|caption|description)$/i;
const SHORT = 80;
const MAX_PARTS = 64;

const isObj = (v: Json): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: Json): v is string | number | boolean | null => v === null || typeof v !== 'object';

function labelOf(path: string[]): string {
	return path.map((p) => p.replace(/_/g, ' ')).join(' · ') || 'result';
}

function scalarText(v: string | number | boolean | null): string {
	return v === null ? '—' : String(v);
}

/** A string holding JSON data (an LLM asked for a JSON object answers with its text). */
function parsedData(text: string): Json | undefined {
	const t = text.trim();
	if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
	try {
		const v = JSON.parse(t) as Json;
		return typeof v === 'object' && v !== null ? v : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Splits a JSON result. `mediaPaths` are the dotted paths of the assets the viewer shows ("images.0.url");
 * they and their holders (with the holder's width, content type, file name) are left out. `textPaths`
 * are top-level properties already shown as text (token streams joined).
 */
export function resultParts(json: Json, mediaPaths: readonly string[], textPaths: readonly string[] = []): ResultParts {
	const parts: ResultParts = { texts: [], values: [], data: [] };
	const media = new Set(mediaPaths);
	const holders = new Set(mediaPaths.map((p) => p.split('.').slice(0, -1).join('.')).filter((p) => p !== ''));
	const count = () => parts.texts.length + parts.values.length + parts.data.length;
	const holdsMedia = (path: string) => mediaPaths.some((m) => m === path || m.startsWith(`${path}.`) || path === '');
	const seenData: string[] = [];

	const visit = (value: Json, path: string[], depth: number): void => {
		if (count() >= MAX_PARTS) return;
		const key = path.join('.');
		if (media.has(key) || holders.has(key)) return;
		if (path.length === 1 && textPaths.includes(key)) return;
		const name = path[path.length - 1] ?? '';
		if (typeof value === 'string') {
			const data = parsedData(value);
			if (data !== undefined) {
				const text = JSON.stringify(data);
				if (!seenData.includes(text)) {
					seenData.push(text);
					parts.data.push({ label: labelOf(path), value: data });
				}
			} else if (PROSE_KEYS.test(name) || value.length > SHORT || value.includes('\n') || path.length === 0) {
				parts.texts.push({ label: labelOf(path), text: value });
			} else parts.values.push({ label: labelOf(path), value });
			return;
		}
		if (isScalar(value)) {
			parts.values.push({ label: labelOf(path), value: scalarText(value) });
			return;
		}
		// Objects and lists that hold media are opened, so the facts beside the media are labelled values.
		if (depth < 6 && key !== '' && holdsMedia(key)) {
			if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, String(i)], depth + 1));
			else for (const [k, v] of Object.entries(value)) visit(v, [...path, k], depth + 1);
			return;
		}
		if (key === '' && isObj(value)) {
			for (const [k, v] of Object.entries(value)) visit(v, [k], depth + 1);
			return;
		}
		if (key === '' && Array.isArray(value) && mediaPaths.length > 0) {
			value.forEach((v, i) => visit(v, [String(i)], depth + 1));
			return;
		}
		// A short list of short scalars reads as one value ("red, green, blue").
		if (Array.isArray(value) && value.length <= 8 && value.every((v) => isScalar(v) && String(v).length <= SHORT)) {
			parts.values.push({ label: labelOf(path), value: value.map((v) => scalarText(v as string | number | boolean | null)).join(', ') });
			return;
		}
		// A small flat object of scalars (token usage) reads as labelled values.
		if (isObj(value) && Object.keys(value).length <= 8 && Object.values(value).every((v) => isScalar(v) && String(v).length <= SHORT)) {
			for (const [k, v] of Object.entries(value)) visit(v, [...path, k], depth + 1);
			return;
		}
		const text = JSON.stringify(value);
		if (!seenData.includes(text)) {
			seenData.push(text);
			parts.data.push({ label: labelOf(path), value });
		}
	};
	visit(json, [], 0);
	return parts;
}
