/**
 * Which form fields a sweep can vary, and what a person's entry for one makes: seeds, numbers,
 * texts and the server's own choices (samplers, checkpoints, LoRAs). Uploaded files are not axes yet.
 */
import type { Field } from '../../fields/rules/field-model';
import type { AxisValue, SweepAxis } from '../protocol/sweep';
import { readAxisValues, type AxisKind } from './axis-values';

/** A field offered as an axis, titled with its node so two `text` inputs are told apart. */
export interface AxisField {
	field: Field;
	title: string;
}

/** What a person entered for one axis: the field, the typed values or the picked choices, and whether it moves with the axis above. */
export interface AxisDraft {
	fieldId: string;
	text: string;
	picks: string[];
	paired: boolean;
}

export type AxisReading = { ok: true; axis: SweepAxis } | { ok: false; message: string };

export function canVary(field: Field): boolean {
	return ['seed', 'integer', 'number', 'text', 'textarea', 'enum', 'boolean'].includes(field.kind) && !field.readOnly;
}

/** How the values of a field are entered: typed (a list, a range, lines) or picked from choices. */
export function entryOf(field: Field): 'typed' | 'lines' | 'picks' {
	if (field.kind === 'enum' || field.kind === 'boolean') return 'picks';
	return field.kind === 'text' || field.kind === 'textarea' ? 'lines' : 'typed';
}

/** The choices a picked axis offers, as the page shows them (values as text, to key checkboxes). */
export function choicesOf(field: Field): Array<{ key: string; label: string; value: AxisValue }> {
	if (field.kind === 'boolean')
		return [
			{ key: 'true', label: 'on', value: true },
			{ key: 'false', label: 'off', value: false }
		];
	if (field.kind !== 'enum') return [];
	return field.options.flatMap((o) => (o.value === null ? [] : [{ key: String(o.value), label: o.label, value: o.value }]));
}

export function readAxis(draft: AxisDraft, found: AxisField | undefined, random?: () => number): AxisReading {
	if (!found) return { ok: false, message: 'Pick an input to vary.' };
	const { field, title } = found;
	// A workflow's input sits at `[nodeId, input]`, a model's field at its path in the body.
	const path = [...field.path];
	if (path.length === 0) return { ok: false, message: `${title} cannot be varied.` };
	let values: AxisValue[];
	if (entryOf(field) === 'picks') {
		const choices = choicesOf(field);
		values = choices.filter((c) => draft.picks.includes(c.key)).map((c) => c.value);
		if (values.length === 0) return { ok: false, message: `Pick at least one value of ${title}.` };
	} else {
		const kind: AxisKind =
			field.kind === 'seed' ? 'seed' : field.kind === 'integer' ? 'integer' : field.kind === 'number' ? 'number' : 'text';
		const bounds =
			field.kind === 'seed' || field.kind === 'integer' || field.kind === 'number'
				? { ...(field.min !== undefined ? { min: field.min } : {}), ...(field.max !== undefined ? { max: field.max } : {}) }
				: {};
		const read = readAxisValues(kind, draft.text, bounds, random);
		if (!read.ok) return { ok: false, message: `${title}: ${read.message}` };
		values = read.values;
	}
	return {
		ok: true,
		axis: {
			fieldId: field.id,
			path,
			label: title,
			seed: field.kind === 'seed',
			values,
			pairedWithPrevious: draft.paired
		}
	};
}
