/**
 * How a field made of fields (an array, an object, a variant) renders the fields inside it:
 * `FieldView` hands its own rendering down through Svelte context, so the containers reach it
 * without importing `FieldView`, which imports them (through the registry): no import circle.
 */
import { getContext, setContext, type Snippet } from 'svelte';
import type { FieldProps } from './types';

export type FieldViewSnippet = Snippet<[FieldProps]>;

const KEY = Symbol('field-view');

/** Called by `FieldView` while it is set up. */
export function provideFieldView(view: FieldViewSnippet): void {
	setContext(KEY, view);
}

/** The rendering of one field, for a component that `FieldView` rendered. */
export function nestedFieldView(): FieldViewSnippet {
	const view = getContext<FieldViewSnippet | undefined>(KEY);
	if (!view) throw new Error('A field made of fields is rendered inside FieldView, which renders the fields inside it.');
	return view;
}
