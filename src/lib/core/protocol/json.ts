/**
 * Small helpers for reading untrusted JSON into typed values without `any`. Every lookup reads own
 * properties only: a key such as `constructor` or `__proto__` must never find Object.prototype.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `o[key]` when `key` is o's own property, else undefined (never an inherited member). */
export function own<T>(o: { readonly [key: string]: T }, key: string): T | undefined {
	return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Sets `o[key]` as an own data property, even for `__proto__` (plain assignment would replace the prototype). */
export function setOwn<T>(o: { [key: string]: T }, key: string, value: T): void {
	Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** An empty object with no prototype, for maps keyed by untrusted names. */
export function nullProtoRecord<T>(): Record<string, T> {
	return Object.create(null) as Record<string, T>;
}

export function str(obj: JsonObject, key: string): string | undefined {
	const v = own(obj, key);
	return typeof v === 'string' ? v : undefined;
}

export function num(obj: JsonObject, key: string): number | undefined {
	const v = own(obj, key);
	return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function bool(obj: JsonObject, key: string): boolean | undefined {
	const v = own(obj, key);
	return typeof v === 'boolean' ? v : undefined;
}

export function obj(o: JsonObject, key: string): JsonObject | undefined {
	const v = own(o, key);
	return isObject(v) ? v : undefined;
}

export function arr(o: JsonObject, key: string): Json[] | undefined {
	const v = own(o, key);
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

/**
 * How deeply a value nests, counted without recursion and up to `limit + 1` (the walk stops there).
 * JSON.parse accepts any depth, but structured cloning, JSON.stringify and every recursive walk
 * overflow the stack a few thousand levels down: parsers refuse such input with a message.
 */
export function nestingDepth(value: unknown, limit: number): number {
	let deepest = 0;
	const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
	while (stack.length) {
		const { v, d } = stack.pop()!;
		if (typeof v !== 'object' || v === null) continue;
		const depth = d + 1;
		if (depth > deepest) deepest = depth;
		if (deepest > limit) return deepest;
		for (const child of Array.isArray(v) ? v : Object.values(v))
			if (typeof child === 'object' && child !== null) stack.push({ v: child, d: depth });
	}
	return deepest;
}

/** Parses JSON text no deeper than `maxDepth`; the error says which. */
export function parseJsonWithin(
	text: string,
	maxDepth: number
): { ok: true; value: Json } | { ok: false; error: SyntaxError | RangeError } {
	let value: Json;
	try {
		value = JSON.parse(text) as Json;
	} catch (error) {
		return { ok: false, error: error instanceof SyntaxError ? error : new SyntaxError(String(error)) };
	}
	if (nestingDepth(value, maxDepth) > maxDepth) return { ok: false, error: new RangeError(`it nests deeper than ${maxDepth} levels`) };
	return { ok: true, value };
}
