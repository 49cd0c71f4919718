/**
 * The one field model behind every form in Runboard. Two pure mappers produce it: one from a
 * workflow node's `object_info` inputs (object-info-fields.ts), one from a model's JSON Schema
 * (schema-fields.ts). One registry maps each kind to a component (components/fields/registry.ts),
 * with a visible JSON fallback for anything a mapper cannot express.
 *
 * Values are plain JSON. A field's `path` says where its value sits in the request: for a
 * workflow, `[nodeId, inputName]`; for a model, the property path inside the request body.
 */

export type FieldPath = Array<string | number>;

export interface FieldBase {
	/** Stable id for DOM ids and keyed lists (the path joined). */
	id: string;
	path: FieldPath;
	label: string;
	description?: string;
	/** Why the value cannot be edited here (shown beside it), when it cannot. */
	readOnly?: string;
	/** What the browser cannot check about the value (shown beside it; never blocks a run). */
	note?: string;
	required: boolean;
	/** Shown behind an "advanced" fold (optional fields of a model, for example). */
	advanced: boolean;
	/** Accepts null (OpenAPI 3.0 `nullable`, 3.1 type arrays with "null"). */
	nullable: boolean;
	default?: unknown;
	/** Example values offered as quick fill. */
	examples?: unknown[];
	/** Marks fields a phone's compact "main inputs" view shows (prompts, seed, size, images). */
	main?: boolean;
}

export interface TextField extends FieldBase {
	kind: 'text' | 'textarea' | 'secret';
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	format?: string;
}

export interface NumberField extends FieldBase {
	kind: 'integer' | 'number';
	min?: number;
	max?: number;
	/** Whether `min` / `max` themselves are out of range (`exclusiveMinimum` on a fractional number). */
	exclusiveMin?: true;
	exclusiveMax?: true;
	step?: number;
	/** The resolution a typed value snaps to (a ComfyUI FLOAT's `round` rule); any value snaps, none is refused for its step. */
	round?: number;
	/** A slider only when both bounds exist. */
	slider: boolean;
}

export interface BooleanField extends FieldBase {
	kind: 'boolean';
}

export interface EnumOption {
	value: string | number | boolean | null;
	label: string;
}

export interface EnumField extends FieldBase {
	kind: 'enum';
	options: EnumOption[];
}

/** A seed: fixed, incremented after each run, or randomized before each run. */
export type SeedMode = 'fixed' | 'increment' | 'randomize';

export interface SeedField extends FieldBase {
	kind: 'seed';
	/** Only the bounds the schema gives: a documented -1 ("random") stays allowed when no minimum says otherwise. */
	min?: number;
	max?: number;
}

export type MediaAccept = 'image' | 'video' | 'audio' | 'any';

/**
 * A media input. `upload` fields hold the name of a file uploaded to the workflow service
 * (LoadImage); `url` fields hold a URL or a data URI sent inside a model request.
 */
export interface MediaField extends FieldBase {
	kind: 'media';
	accept: MediaAccept;
	transport: 'upload' | 'url';
	/** Names the service already knows (LoadImage's combo of uploaded images). */
	known?: string[];
	/** Whether a mask can be attached (LoadImage's alpha, an inpainting `mask_url`). */
	mask?: boolean;
}

export interface ArrayField extends FieldBase {
	kind: 'array';
	item: Field;
	minItems?: number;
	maxItems?: number;
}

export interface ObjectField extends FieldBase {
	kind: 'object';
	fields: Field[];
}

export interface Variant {
	label: string;
	field: Field;
}

/** `anyOf`/`oneOf`: a switch between shapes (a preset size or a custom width/height). */
export interface VariantField extends FieldBase {
	kind: 'variant';
	variants: Variant[];
}

/** The visible fallback: a JSON editor for a part no mapper understood. */
export interface JsonField extends FieldBase {
	kind: 'json';
	reason: string;
}

export type Field =
	TextField | NumberField | BooleanField | EnumField | SeedField | MediaField | ArrayField | ObjectField | VariantField | JsonField;

export type FieldKind = Field['kind'];

/** A titled group of fields: a workflow node, or a model's input. */
export interface FieldGroup {
	id: string;
	title: string;
	subtitle?: string;
	/** A partner node (calls an external paid service). */
	partner?: boolean;
	/** The author's canvas group the node sits in (UI-format workflows). */
	section?: { title: string; color?: string };
	/** The author collapsed the node on the canvas: hidden unless asked. */
	collapsed?: boolean;
	fields: Field[];
}

export function fieldId(path: FieldPath): string {
	return path.map(String).join('.');
}

/** Seeds are recognised by name, as every client does: `seed`, `noise_seed`, `*_seed`. */
export function looksLikeSeed(name: string): boolean {
	return /(^|_)seed$/i.test(name);
}

/** Reads the value at a path of a JSON tree (own members only: a `constructor` key finds nothing inherited). */
export function valueAt(root: unknown, path: FieldPath): unknown {
	let cur: unknown = root;
	for (const key of path) {
		if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
		cur = (cur as Record<string | number, unknown>)[key];
	}
	return cur;
}

/** Returns a copy of `root` with `value` at `path`, creating objects and arrays on the way. */
export function withValueAt(root: unknown, path: FieldPath, value: unknown): unknown {
	if (path.length === 0) return value;
	const [head, ...rest] = path as [string | number, ...FieldPath];
	const base: Record<string | number, unknown> | unknown[] = Array.isArray(root)
		? [...root]
		: root !== null && typeof root === 'object'
			? { ...(root as object) }
			: typeof head === 'number'
				? []
				: {};
	const child = Object.hasOwn(base, head) ? (base as Record<string | number, unknown>)[head] : undefined;
	if (value === undefined && rest.length === 0) {
		if (Array.isArray(base)) base.splice(head as number, 1);
		else delete (base as Record<string | number, unknown>)[head];
		return base;
	}
	// A defined own property, even for `__proto__` (assignment would replace the prototype instead).
	Object.defineProperty(base, head, { value: withValueAt(child, rest, value), writable: true, enumerable: true, configurable: true });
	return base;
}
