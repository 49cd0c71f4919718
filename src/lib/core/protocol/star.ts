/**
 * A starred run, or starred outputs of it: `star:<run id>`. The timeline sets stars; the storage
 * feature reads them, because a starred output's saved bytes are never removed to make room.
 * Types only.
 */
export interface Star {
	runId: string;
	/** The whole run is starred: every output of it is kept. */
	run: boolean;
	/** Output indexes starred one by one (a workflow run's `outputs`, a model result's assets). */
	outputs: number[];
	at: number;
}
