/**
 * A sweep: many runs of one workflow as one piece of work. One record in IndexedDB (`sweep:<id>`)
 * holds the plan (axes, the fixed inputs) and each cell's place, its run's id and how that run
 * stands; the cells themselves are ordinary runs carrying the sweep's id. Types only.
 */
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { AppError } from '../../core/protocol/errors';
import type { JsonObject } from '../../core/protocol/json';

export const SWEEP_SCHEMA_VERSION = 1;
/** At most three axes: columns, rows, pages. */
export const MAX_AXES = 3;
/** A sweep larger than this is refused: a grid nobody can read, and a queue nobody meant. */
export const MAX_CELLS = 400;

/** A value an axis sets: a number, a text, a choice the server offered. */
export type AxisValue = string | number | boolean;

/** One input that varies: where it sits (`[nodeId, input]` in a workflow, the field's path in a model's body) and the values it takes. */
export interface SweepAxis {
	/** The form field's id (`nodeId.input`), for labels; `MODEL_AXIS` for the axis of models. */
	fieldId: string;
	path: Array<string | number>;
	label: string;
	/** The input is a seed: its values are also the run's shown seed. */
	seed: boolean;
	values: AxisValue[];
	/** Moves together with the axis before it (width with height): same number of values, one step each. */
	pairedWithPrevious: boolean;
}

/**
 * How a cell stands. `pending`: not sent yet; `sending`: its run id and job id are stored and the
 * submit is on its way (after a reload such a cell is followed through its run, never sent again);
 * then its run's own status; `skipped`: the sweep was cancelled before it was sent.
 */
export type CellStatus =
	'pending' | 'sending' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted' | 'lost' | 'skipped';

export interface SweepCell {
	index: number;
	/** Its place on each axis group (column, row, page), by index into the group's values. */
	place: number[];
	/** The values it sets, in axis order. */
	values: AxisValue[];
	status: CellStatus;
	/** Chosen before the submit and stored first, with its job id: a resend after a reload uses them, or follows them. */
	runId: string | null;
	promptId: string | null;
	/** How many times it was sent (a retry of a failed cell counts). */
	attempts: number;
}

/** The field id of the axis whose values are model ids ("the same input on several models"). */
export const MODEL_AXIS = '$model';

/**
 * A sweep of router models: its cells are model runs, sent to the queue under their own
 * Idempotency-Key. Each model's body holds the fields the models share, filled once, and its own.
 */
export interface ModelSweepTarget {
	/** The model the sweep was planned on: every cell's model unless an axis varies the model. */
	modelId: string;
	/** Each model's body, by model id, before the axes' values are written in. */
	bodies: Record<string, JsonObject>;
}

export type SweepStatus = 'running' | 'paused' | 'finished' | 'cancelled';

export interface SweepRecord {
	schemaVersion: typeof SWEEP_SCHEMA_VERSION;
	id: string;
	profileId: string;
	workflowId: string | null;
	title: string;
	/** The workflow with every input outside the axes as it was when the sweep started (seeds frozen); empty for a model sweep. */
	base: ApiPrompt;
	/** Set for a sweep of router models: its cells are model runs. */
	model?: ModelSweepTarget;
	/** Seed inputs outside the axes, by field id, as frozen: shown on every cell's run. */
	seeds: Record<string, number>;
	axes: SweepAxis[];
	/** The pool its cells go through, each to the member the pool chooses; absent: all to `profileId`. */
	poolId?: string;
	cells: SweepCell[];
	status: SweepStatus;
	createdAt: number;
	finishedAt?: number;
	/** Cells sent at once at most (the server's pace): a local ComfyUI runs one at a time. */
	window: number;
	/** The server refused for now (429, 409): no cell is sent before this time. */
	waitUntil?: number;
	/** Why the last refusal came, for the page. */
	lastProblem?: string;
	/**
	 * The output the grid, its thumbnails and its picture show of each run: a workflow's output node
	 * id, a model result's asset path. Absent: each run's first.
	 */
	shownSource?: string;
}

/**
 * A small picture of one cell's shown output (`sweepthumb:<sweep id>:<cell>`), made in the worker
 * when the output arrives, kept while the full output follows the cache's rules: the grid shows it
 * once the full output is freed or the server has forgotten it.
 */
export interface CellThumbnail {
	/** The run and the output (index into its outputs or its result's assets) it was made from. */
	runId: string;
	output: number;
	picture: Blob;
	/** A video's poster (a still of its first frame), not an image's thumbnail. */
	poster?: true;
}

/**
 * Kept in a thumbnail's place when a video's poster could not be made (a codec this browser cannot
 * decode, a file it cannot read): why, so the grid says so instead of fetching the video again.
 */
export interface CellNoPoster {
	runId: string;
	output: number;
	noPoster: string;
}

/**
 * What a grid cell shows: the full output when it is at hand, else the cell's thumbnail, or its
 * video's poster (the video itself on demand), or the words saying why the video has none.
 */
export type CellPicture = { picture: Blob; from: 'output' | 'thumbnail' | 'poster' } | { from: 'no-poster'; problem: string };

/** What a sweep keeps on this device, for the storage page. */
export interface SweepHolding {
	id: string;
	title: string;
	cells: number;
	/** The runs of its cells: their cached outputs are the sweep's. */
	runIds: string[];
	thumbnails: { count: number; bytes: number };
	/** Posters of its video cells (kept and freed with the thumbnails). */
	posters: { count: number; bytes: number };
}

export interface StartSweepInput {
	profileId: string;
	workflowId: string | null;
	title: string;
	base: ApiPrompt;
	seeds: Record<string, number>;
	axes: SweepAxis[];
	model?: ModelSweepTarget;
	/** Cells go through this pool, each to the member it chooses; `profileId` is then where the form's input files come from. */
	poolId?: string;
}

export type SweepAction = 'pause' | 'resume' | 'cancel' | 'retry-failed';

export interface SweepApi {
	startSweep(input: StartSweepInput): Promise<{ ok: true; value: SweepRecord } | { ok: false; error: AppError }>;
	getSweep(input: { id: string }): Promise<SweepRecord | null>;
	listSweeps(input: Record<string, never>): Promise<SweepRecord[]>;
	sweepAction(input: { id: string; action: SweepAction }): Promise<SweepRecord | null>;
	/** Saves the output the grid shows of each run (null: each run's first); the thumbnails follow where the outputs are at hand. */
	showSweepOutput(input: { id: string; source: string | null }): Promise<SweepRecord | null>;
	/** A cell's picture of its run's output `output`: the cached output, else its thumbnail, else the output from the server. */
	sweepCellPicture(input: { id: string; cell: number; output: number }): Promise<CellPicture | null>;
	/** A cell's video itself, on demand: from the cache, else its server (a model result's only from the cache). */
	sweepCellVideo(input: { id: string; cell: number; output: number }): Promise<Blob | null>;
	/** The grid as one PNG with axis labels, drawn in the worker, carrying the workflow and the sweep in its text chunks. */
	sweepPicture(input: { id: string }): Promise<{ ok: true; value: Blob } | { ok: false; error: AppError }>;
}

export type SweepEvent = { type: 'sweep'; sweep: SweepRecord };

/** The text chunk of an exported grid picture that names its sweep (the workflow is in `prompt`, as ComfyUI writes it). */
export const SWEEP_TEXT_KEY = 'runboard_sweep';
