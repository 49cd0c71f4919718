import type { NumberField } from './field-model';

/** Share of the range a slider keeps clear of an exclusive bound when the field has no step. */
const INSET_SHARE = 1 / 1000;

/**
 * The ends a slider may reach. An exclusive bound is itself out of range, so the slider stops one
 * step inside it (or a thousandth of the range, for a field with no step): dragging to the end
 * never picks a value the service refuses.
 */
export function sliderRange(field: NumberField): { min: number; max: number } | null {
	if (field.min === undefined || field.max === undefined) return null;
	const inset = field.step ?? (field.max - field.min) * INSET_SHARE;
	const min = field.exclusiveMin ? field.min + inset : field.min;
	const max = field.exclusiveMax ? field.max - inset : field.max;
	return min < max ? { min, max } : null;
}
