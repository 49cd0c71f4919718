/**
 * EBML's variable-length integer (Matroska, WebM), shared by the workflow-file reader and the video
 * poster's first-frame reader: its length and value at `at`, with the marker bit removed for sizes
 * and kept for IDs; a size of all ones is "unknown" (null). Null when it does not fit or is invalid.
 */
export function vint(b: Uint8Array, at: number, keepMarker: boolean): { length: number; value: number | null } | null {
	const first = b[at];
	if (first === undefined || first === 0) return null;
	const length = Math.clz32(first) - 23;
	if (at + length > b.length) return null;
	let value = keepMarker ? first : first & (0xff >> length);
	let allOnes = value === 0xff >> length;
	for (let i = 1; i < length; i++) {
		value = value * 256 + b[at + i]!;
		if (b[at + i] !== 0xff) allOnes = false;
	}
	if (keepMarker && length > 4) return null; // IDs are at most 4 bytes
	if (!keepMarker && allOnes) return { length, value: null };
	if (value > Number.MAX_SAFE_INTEGER) return null;
	return { length, value };
}
