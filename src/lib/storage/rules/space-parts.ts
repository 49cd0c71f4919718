/**
 * What holds the space Runboard uses, in parts a person can act on: run and workflow records,
 * cached outputs, schemas (model schemas, the catalog, node definitions), workflow thumbnails, and
 * the rest (the app's offline copy, the browser's own bookkeeping), which is what the browser
 * reports less the parts measured, so the parts always add up to its figure.
 */
import type { SpaceParts } from '../protocol/api';

export type { SpaceParts };

export type MeasuredParts = Omit<SpaceParts, 'other'>;

/** The parts, with `other` making up the browser's figure; null when the browser gives none. */
export function spaceParts(measured: MeasuredParts, usage: number | null): SpaceParts | null {
	if (usage === null) return null;
	const known = measured.records + measured.outputs + measured.schemas + measured.thumbnails;
	if (known <= usage) return { ...measured, other: usage - known };
	// The browser compresses what it stores: scale the measured parts to its figure, keeping their shares.
	const scale = usage / known;
	const records = Math.round(measured.records * scale);
	const outputs = Math.round(measured.outputs * scale);
	const schemas = Math.round(measured.schemas * scale);
	return { records, outputs, schemas, thumbnails: Math.max(0, usage - records - outputs - schemas), other: 0 };
}

/** Bytes a stored record takes, near enough: its JSON, with Blobs counted apart (their `size`). */
export function recordBytes(value: unknown): number {
	try {
		return new TextEncoder().encode(JSON.stringify(value, (_k, v: unknown) => (v instanceof Blob ? undefined : v)) ?? '').byteLength;
	} catch {
		return 0;
	}
}
