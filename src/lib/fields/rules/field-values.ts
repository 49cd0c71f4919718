/** What the field widgets do with values: items of a list, the active variant, starting values, the body sent. */
import { fieldId, withValueAt, type Field, type FieldPath } from './field-model';
import { isSchema, type Schema } from '../../core/protocol/openapi';

/** The field of item `index` of an array: the item template with its path moved to that index. */
export function itemField(array: { path: FieldPath; item: Field }, index: number): Field {
	return rebase(array.item, [...array.path, 0], [...array.path, index]);
}

function rebase(field: Field, from: FieldPath, to: FieldPath): Field {
	const path = [...to, ...field.path.slice(from.length)];
	const moved = { ...field, path, id: fieldId(path) } as Field;
	if (moved.kind === 'object') moved.fields = moved.fields.map((f) => rebase(f, from, to));
	if (moved.kind === 'array') moved.item = rebase(moved.item, from, to);
	if (moved.kind === 'variant') moved.variants = moved.variants.map((v) => ({ ...v, field: rebase(v.field, from, to) }));
	return moved;
}

/** Whether a value has the shape a field edits (to pick the active variant). */
export function fits(field: Field, value: unknown): boolean {
	switch (field.kind) {
		case 'enum':
			return field.options.some((o) => o.value === value);
		case 'text':
		case 'textarea':
		case 'secret':
		case 'media':
			return typeof value === 'string';
		case 'integer':
		case 'seed':
			return typeof value === 'number' && Number.isInteger(value);
		case 'number':
			return typeof value === 'number';
		case 'boolean':
			return typeof value === 'boolean';
		case 'array':
			return Array.isArray(value);
		case 'object': {
			if (!isSchema(value)) return false;
			const known = new Set(field.fields.map((f) => f.path[f.path.length - 1]));
			return (
				Object.keys(value).every((k) => known.has(k)) &&
				field.fields.every((f) => {
					const key = String(f.path[f.path.length - 1]);
					return !f.required || f.kind !== 'enum' || fits(f, Object.hasOwn(value, key) ? value[key] : undefined);
				})
			);
		}
		case 'variant':
			return field.variants.some((v) => fits(v.field, value));
		case 'json':
			return true;
	}
}

export function activeVariant(field: { variants: Array<{ field: Field }> }, value: unknown): number {
	if (value === undefined || value === null) return 0;
	const i = field.variants.findIndex((v) => fits(v.field, value));
	return i === -1 ? 0 : i;
}

/** A starting value for a field switched to (a variant chosen, an item added). */
export function initialValue(field: Field): unknown {
	if (field.default !== undefined) return structuredClone(field.default);
	switch (field.kind) {
		case 'object': {
			let out: unknown = {};
			for (const f of field.fields) {
				const v = f.required || f.default !== undefined ? initialValue(f) : undefined;
				if (v !== undefined) out = withValueAt(out, [String(f.path[f.path.length - 1])], v);
			}
			return out;
		}
		case 'array':
			return [];
		case 'enum':
			return field.options[0]?.value;
		case 'boolean':
			return false;
		case 'integer':
		case 'number':
			return field.min ?? 0;
		case 'seed':
			return undefined;
		case 'variant':
			return field.variants[0] ? initialValue(field.variants[0].field) : undefined;
		default:
			return field.kind === 'json' ? undefined : '';
	}
}

/** The request body from form values: empty optional text is left out rather than sent as "". */
export function cleanBody(fields: Field[], values: unknown): unknown {
	if (!isSchema(values)) return values;
	const out: Schema = { ...values };
	for (const f of fields) {
		const key = String(f.path[f.path.length - 1]);
		const v = Object.hasOwn(out, key) ? out[key] : undefined;
		if (v === undefined) delete out[key];
		else if (v === '' && !f.required) delete out[key];
		else if (f.kind === 'object' && isSchema(v))
			Object.defineProperty(out, key, { value: cleanBody(f.fields, v), writable: true, enumerable: true, configurable: true });
	}
	return out;
}
