/** Small helpers for reading untrusted JSON into typed values without `any`. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(obj: JsonObject, key: string): string | undefined {
	const v = obj[key];
	return typeof v === 'string' ? v : undefined;
}

export function num(obj: JsonObject, key: string): number | undefined {
	const v = obj[key];
	return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function bool(obj: JsonObject, key: string): boolean | undefined {
	const v = obj[key];
	return typeof v === 'boolean' ? v : undefined;
}

export function obj(o: JsonObject, key: string): JsonObject | undefined {
	const v = o[key];
	return isObject(v) ? v : undefined;
}

export function arr(o: JsonObject, key: string): Json[] | undefined {
	const v = o[key];
	return Array.isArray(v) ? v : undefined;
}

/** Parses text as JSON, returning undefined instead of throwing. */
export function tryParseJson(text: string): Json | undefined {
	try {
		return JSON.parse(text) as Json;
	} catch {
		return undefined;
	}
}
