/**
 * Hard limits for reading metadata out of files a person picked (or an attacker crafted). Each one
 * turns an absurd file into a typed error with a message instead of a frozen tab.
 */

const MiB = 1024 * 1024;

/** Most bytes any one text may inflate to (a zTXt or compressed iTXt chunk). Real workflows are well under 1 MiB. */
export const MAX_INFLATED_TEXT_BYTES = 8 * MiB;

/** Most bytes of one metadata structure read at once: a text chunk, an ID3 tag, `moov/udta/meta`, a Matroska `Tags`. */
export const MAX_METADATA_BYTES = 16 * MiB;

/** Most bytes read from one file in total, headers included. Image and media data are skipped, never read. */
export const MAX_FILE_READ_BYTES = 32 * MiB;

/** Most structure elements (chunks, boxes, blocks, pages, frames, tags) visited in one file. */
export const MAX_ELEMENTS = 100_000;

/** Deepest nesting followed in a tree-shaped container (Matroska elements, nested SimpleTags). */
export const MAX_DEPTH = 8;

export function formatMiB(bytes: number): string {
	return `${Math.round(bytes / MiB)} MB`;
}
