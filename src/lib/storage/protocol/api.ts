/** The storage part of the worker API: usage against the quota, and freeing space. */
export interface StorageStatus {
	usage: number | null;
	quota: number | null;
	outputs: { count: number; bytes: number };
}

export interface StorageApi {
	storageStatus(input: Record<string, never>): Promise<StorageStatus>;
	/** Removes saved output bytes, oldest runs first, until `bytes` are freed; returns what was freed. */
	freeOutputSpace(input: { bytes: number }): Promise<{ freed: number; removed: number }>;
}
