/**
 * Which `widgets_values` belong to which input. The editor makes one widget per primitive input
 * (INT, FLOAT, STRING, BOOLEAN, COMBO) in definition order, and stores every widget's value by
 * position, including widgets that exist only in the editor and never reach the server:
 * - "control after generate" after an INT/FLOAT whose options say `control_after_generate` (absent:
 *   INT inputs named `seed` or `noise_seed`; an explicit `false` turns it off);
 * - the same control plus its filter text (`control_filter_list`) after a COMBO that asks for it;
 * - the upload button after the file combo of image, video and audio loaders.
 * Newer editors no longer store the control values; a file whose count matches that layout is read
 * by it. Any other count is assigned by position, as the editor does, and reported.
 */
import type { InputDefinition, NodeDefinition } from '../../protocol/object-info';
import type { Json } from '../../../core/protocol/json';

export interface WidgetSlot {
	input: InputDefinition;
	/** Editor-only values stored right after this widget's value. */
	extras: number;
}

const SEED_NAMES = new Set(['seed', 'noise_seed']);
const UPLOAD_OPTIONS = ['image_upload', 'video_upload', 'audio_upload', 'animated_image_upload'];

function hasWidget(input: InputDefinition): boolean {
	return input.type.kind !== 'link' && input.options['forceInput'] !== true;
}

/** How many control values (control, filter text) the editor stores after this input's own. */
export function controlValues(input: InputDefinition): number {
	const option = input.options['control_after_generate'];
	const wanted = option === undefined ? input.type.kind === 'INT' && SEED_NAMES.has(input.name) : Boolean(option);
	if (!wanted) return 0;
	if (input.type.kind === 'INT' || input.type.kind === 'FLOAT') return 1;
	if (input.type.kind === 'COMBO') return 2;
	return 0;
}

const layouts = new WeakMap<NodeDefinition, WidgetSlot[]>();

export function widgetLayout(definition: NodeDefinition): WidgetSlot[] {
	const known = layouts.get(definition);
	if (known) return known;
	const slots: WidgetSlot[] = [];
	for (const input of definition.inputs) {
		if (!hasWidget(input)) continue;
		const upload = UPLOAD_OPTIONS.some((o) => input.options[o] === true) ? 1 : 0;
		slots.push({ input, extras: controlValues(input) + upload });
	}
	layouts.set(definition, slots);
	return slots;
}

/** The value a new widget starts with, which a value missing from the file leaves in place. */
export function defaultWidgetValue(input: InputDefinition): Json {
	const fallback = input.options['default'];
	if (fallback !== undefined) return fallback;
	switch (input.type.kind) {
		case 'INT':
		case 'FLOAT':
			return typeof input.options['min'] === 'number' ? Math.max(0, input.options['min']) : 0;
		case 'STRING':
			return '';
		case 'BOOLEAN':
			return false;
		case 'COMBO':
			return input.type.choices[0] ?? '';
		default:
			return null;
	}
}

export interface WidgetValues {
	/** Input name to value, for every widget of the definition. */
	values: Map<string, Json>;
	/** Set when the stored count fits neither layout: how many were stored and expected. */
	mismatch?: { stored: number; expected: number };
}

/** Assigns stored widget values to the definition's widget inputs. */
export function widgetValues(definition: NodeDefinition, stored: Json[] | Map<string, Json> | null): WidgetValues {
	const layout = widgetLayout(definition);
	const values = new Map<string, Json>();
	if (stored === null) {
		for (const slot of layout) values.set(slot.input.name, defaultWidgetValue(slot.input));
		return values.size === 0 ? { values } : { values, mismatch: { stored: 0, expected: layout.length } };
	}
	if (stored instanceof Map) {
		for (const slot of layout) {
			const v = stored.get(slot.input.name);
			values.set(slot.input.name, v === undefined ? defaultWidgetValue(slot.input) : v);
		}
		return { values };
	}
	const withExtras = layout.reduce((n, s) => n + 1 + s.extras, 0);
	const valuesOnly = stored.length === layout.length && stored.length !== withExtras;
	let position = 0;
	for (const slot of layout) {
		const v = stored[position];
		values.set(slot.input.name, v === undefined ? defaultWidgetValue(slot.input) : v);
		position += valuesOnly ? 1 : 1 + slot.extras;
	}
	if (stored.length === withExtras || valuesOnly) return { values };
	return { values, mismatch: { stored: stored.length, expected: withExtras } };
}
