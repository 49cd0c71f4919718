/** Readers of single JSON Schema keywords (types, bounds, limits, examples) and label wording. */
import { isSchema, type Schema } from '../../core/protocol/openapi';

/** `type` as a list without "null", and whether null is allowed (3.0 `nullable`, 3.1 `[t, "null"]`, `enum` with null). */
export function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
	const t = schema['type'];
	const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
	const nullable = schema['nullable'] === true || list.includes('null') || (Array.isArray(schema['enum']) && schema['enum'].includes(null));
	return { types: list.filter((x) => x !== 'null'), nullable };
}

export function humanize(name: string): string {
	const spaced = name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.trim();
	return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : name;
}

export function examplesOf(schema: Schema): unknown[] | undefined {
	if (Array.isArray(schema['examples']) && schema['examples'].length) return schema['examples'];
	if ('example' in schema && schema['example'] !== undefined) return [schema['example']];
	return undefined;
}

export function num(schema: Schema, key: string): number | undefined {
	const v = schema[key];
	return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * Lower and upper bounds, reading the 3.0 / draft-4 boolean and the 3.1 numeric `exclusive*` alike
 * (the tighter bound wins when both forms are present). A whole number's exclusive bound becomes the
 * next whole number inside it; a fractional number keeps the bound and says it is exclusive.
 */
export function bounds(schema: Schema, integer: boolean): { min?: number; max?: number; exclusiveMin?: true; exclusiveMax?: true } {
	const side = (inclusiveKey: string, exclusiveKey: string, up: boolean): { at?: number; exclusive: boolean } => {
		const inclusive = num(schema, inclusiveKey);
		const ex = schema[exclusiveKey];
		if (ex === true && inclusive !== undefined) return { at: inclusive, exclusive: true };
		if (typeof ex === 'number' && Number.isFinite(ex)) {
			const tighter = inclusive === undefined || (up ? ex >= inclusive : ex <= inclusive);
			return tighter ? { at: ex, exclusive: true } : { at: inclusive, exclusive: false };
		}
		return { ...(inclusive !== undefined ? { at: inclusive } : {}), exclusive: false };
	};
	const lo = side('minimum', 'exclusiveMinimum', true);
	const hi = side('maximum', 'exclusiveMaximum', false);
	let min = lo.at;
	let max = hi.at;
	if (integer && min !== undefined) min = lo.exclusive ? Math.floor(min) + 1 : Math.ceil(min);
	if (integer && max !== undefined) max = hi.exclusive ? Math.ceil(max) - 1 : Math.floor(max);
	return {
		...(min !== undefined ? { min } : {}),
		...(max !== undefined ? { max } : {}),
		...(!integer && lo.exclusive ? { exclusiveMin: true as const } : {}),
		...(!integer && hi.exclusive ? { exclusiveMax: true as const } : {})
	};
}

export function inferType(schema: Schema): string | undefined {
	if (isSchema(schema['properties'])) return 'object';
	if (isSchema(schema['items'])) return 'array';
	return undefined;
}

export function stringLimits(schema: Schema): { minLength?: number; maxLength?: number; pattern?: string } {
	const minLength = num(schema, 'minLength');
	const maxLength = num(schema, 'maxLength');
	const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : undefined;
	return {
		...(minLength !== undefined ? { minLength } : {}),
		...(maxLength !== undefined ? { maxLength } : {}),
		...(pattern ? { pattern } : {})
	};
}
