/** The history part of the worker API: export and import of the run history. */
export interface HistoryApi {
	/** The history file; with `ids`, of those runs only. */
	exportHistory(input: { withBytes: boolean; ids?: string[] }): Promise<Blob>;
	/** Adds the runs of a history file; runs already here are kept as they are. */
	importHistory(input: {
		file: File;
	}): Promise<{ ok: true; runs: number; bytes: number; skipped: number } | { ok: false; message: string }>;
}
