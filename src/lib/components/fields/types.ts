/** Props every field component receives from the registry. */
import type { Field, FieldPath, SeedMode } from '$lib/forms/field-model';

export interface FieldContext {
	/** The error message at a path, for nested fields. */
	errorAt(path: FieldPath): string | undefined;
	seedMode(fieldId: string): SeedMode;
	setSeedMode(fieldId: string, mode: SeedMode): void;
	/** Chooses a file for a media field; resolves to the value to store (a name or a URL), or undefined. */
	pickMedia?(field: Field, file: File): Promise<string | undefined>;
	/** A URL the page may show for a media value (an object URL or a cached output), if any. */
	previewOf?(field: Field, value: unknown): string | undefined;
}

export interface FieldProps<F extends Field = Field> {
	field: F;
	value: unknown;
	error: string | undefined;
	onChange: (value: unknown) => void;
	ctx: FieldContext;
}
