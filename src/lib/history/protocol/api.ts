/** The history part of the worker API: export and import of the run history. */
export interface HistoryApi {
	exportHistory(input: { withBytes: boolean }): Promise<Blob>;
	/** Adds the runs of a history file; runs already here are kept as they are. */
	importHistory(input: {
		file: File;
	}): Promise<{ ok: true; runs: number; bytes: number; skipped: number } | { ok: false; message: string }>;
}
