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

export interface StorageStatus {
	usage: number | null;
	quota: number | null;
	outputs: { count: number; bytes: number };
	/** Of those, the starred ones: kept when space is freed. */
	starred: { count: number; bytes: number };
	/** What holds `usage`, adding up to it; null when the browser reports no usage. */
	parts: SpaceParts | null;
}

export interface StorageApi {
	storageStatus(input: Record<string, never>): Promise<StorageStatus>;
	/** Removes saved output bytes, oldest runs first, never a starred one, until `bytes` are freed; returns what was freed. */
	freeOutputSpace(input: { bytes: number }): Promise<{ freed: number; removed: number }>;
}
