/** Props every field component receives from the registry. */
import type { Field, FieldPath, SeedMode } from '$lib/fields/rules/field-model';

export interface FieldContext {
	/** The error message at a path, for nested fields. */
	errorAt(path: FieldPath): string | undefined;
	seedMode(fieldId: string): SeedMode;
	setSeedMode(fieldId: string, mode: SeedMode): void;
	/** Chooses a file for a media field; resolves to the value to store (a name or a URL), or undefined. `signal` stops the upload. */
	pickMedia?(field: Field, file: File, signal?: AbortSignal): Promise<string | undefined>;
	/** A URL the page may show for a media value (an object URL or a cached output), if any. */
	previewOf?(field: Field, value: unknown): string | undefined;
	/** Hashing/uploading progress of a media field, while it lasts. */
	uploadState?(fieldId: string): { phase: string; loaded: number; total: number } | undefined;
	/** Uploads a mask for the image currently in the field; resolves to the new value. */
	pickMask?(field: Field, mask: File, signal?: AbortSignal): Promise<string | undefined>;
	/** An output copied with "Use as input", offered to image fields. */
	clipboard?: { filename: string; take(): Promise<File | undefined> } | null;
}

export interface FieldProps<F extends Field = Field> {
	field: F;
	value: unknown;
	error: string | undefined;
	onChange: (value: unknown) => void;
	ctx: FieldContext;
}
