/**
 * The one table from field kind to component. A kind missing here renders as the JSON fallback,
 * visibly, so an unknown shape is editable instead of silently dropped.
 */
import type { Component } from 'svelte';
import type { FieldKind } from '$lib/fields/rules/field-model';
import type { FieldProps } from './types';
import BooleanInput from './BooleanInput.svelte';
import EnumInput from './EnumInput.svelte';
import JsonInput from './JsonInput.svelte';
import MediaInput from './MediaInput.svelte';
import NumberInput from './NumberInput.svelte';
import SeedInput from './SeedInput.svelte';
import TextInput from './TextInput.svelte';
import ArrayInput from './ArrayInput.svelte';
import ObjectInput from './ObjectInput.svelte';
import VariantInput from './VariantInput.svelte';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFieldComponent = Component<FieldProps<any>>;

export const FIELD_COMPONENTS: Partial<Record<FieldKind, AnyFieldComponent>> = {
	text: TextInput,
	textarea: TextInput,
	secret: TextInput,
	integer: NumberInput,
	number: NumberInput,
	boolean: BooleanInput,
	enum: EnumInput,
	seed: SeedInput,
	media: MediaInput,
	json: JsonInput,
	array: ArrayInput,
	object: ObjectInput,
	variant: VariantInput
};

/** Registers the components of another kind (media, arrays, objects, variants). */
export function registerField(kind: FieldKind, component: AnyFieldComponent): void {
	FIELD_COMPONENTS[kind] = component;
}
