/**
 * What a bundle or a share link may hold. A bundle comes from a stranger as often as from oneself:
 * every number is checked before or while the bytes are read, never after they are all in memory.
 */
export const BUNDLE_LIMITS = {
	/** The zip file itself. */
	fileBytes: 512 * 1024 * 1024,
	/** Entries in the zip (a run with many outputs has a few dozen). */
	entries: 512,
	/** One entry once inflated: a long video output fits, a bomb does not. */
	entryBytes: 256 * 1024 * 1024,
	/** All entries once inflated, counted while inflating. */
	totalBytes: 768 * 1024 * 1024,
	/** A JSON entry (the manifest, a workflow) once inflated. */
	jsonBytes: 16 * 1024 * 1024,
	/** Nesting of any JSON entry; ComfyUI's own workflows nest a few levels (as for imports). */
	jsonDepth: 64,
	/** An entry's path: `folder/name`, short enough to show. */
	pathChars: 160
} as const;

export type BundleLimits = { readonly [K in keyof typeof BUNDLE_LIMITS]: number };
