/** The storage part of the worker API: usage against the quota, and freeing space. */
/** What holds the space, in bytes; the parts add up to the browser's usage (`rules/space-parts.ts`). */
export interface SpaceParts {
	records: number;
	outputs: number;
	schemas: number;
	thumbnails: number;
	/** The app's offline copy and the browser's bookkeeping: usage less the parts above, never below 0. */
	other: number;
}

/** What a sweep keeps on this device: its cells' cached outputs (starred ones among them), its thumbnails and its videos' posters. */
export interface SweepSpace {
	id: string;
	title: string;
	cells: number;
	outputs: { count: number; bytes: number };
	/** Of its outputs, the starred ones: freeing the sweep keeps them. */
	starred: { count: number; bytes: number };
	thumbnails: { count: number; bytes: number };
	posters: { count: number; bytes: number };
}

export interface StorageStatus {
	usage: number | null;
	quota: number | null;
	outputs: { count: number; bytes: number };
	/** Of those, the starred ones: kept when space is freed. */
	starred: { count: number; bytes: number };
	/** What holds `usage`, adding up to it; null when the browser reports no usage. */
	parts: SpaceParts | null;
	/** Each sweep and what it keeps, newest first. */
	sweeps: SweepSpace[];
}

export interface StorageApi {
	storageStatus(input: Record<string, never>): Promise<StorageStatus>;
	/** Removes saved output bytes, oldest runs first, never a starred one, until `bytes` are freed; returns what was freed. */
	freeOutputSpace(input: { bytes: number }): Promise<{ freed: number; removed: number }>;
	/** Removes a sweep's cached outputs as one (never a starred one) and, with `thumbnails`, its thumbnails and posters; returns what was freed. */
	freeSweepSpace(input: { id: string; thumbnails: boolean }): Promise<{ freed: number; removed: number }>;
}
