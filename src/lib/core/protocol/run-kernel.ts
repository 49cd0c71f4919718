/**
 * The run kernel: what runs of every kind share, so the timeline and later cross-kind work (sweeps,
 * a server pool, search) read runs without reaching into the features that make them. Each feature
 * keeps its own full record (`workflow-run.ts`, `model-run.ts`, beside this file); every record maps
 * to one `TimelineEntry` (`core/rules/run-entry.ts`). Types only.
 */
import type { ModelRun } from './model-run';
import type { WorkflowRun } from './workflow-run';

/** A run of any kind, as saved. */
export type AnyRun = WorkflowRun | ModelRun;
export type RunKind = AnyRun['kind'];

/** Every status a run of any kind can have (the workflow's `interrupted` and `lost`, the model's `unknown`). */
export type AnyRunStatus = WorkflowRun['status'] | ModelRun['status'];

/** What a result is, for its icon and its words: a model's kind and a run's first output alike. */
export const RESULT_KINDS = ['image', 'video', 'audio', 'text', '3d', 'other'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/** One compact entry per run, workflow job or model request alike, so ten thousand of them load and filter fast. */
export interface TimelineEntry {
	id: string;
	kind: RunKind;
	profileId: string;
	title: string;
	/** What was asked: the prompt's text (bounded), for the row's title and search; absent when there is none. */
	asked?: string;
	/** The model id, or the workflow's saved id. */
	subject: string | null;
	status: AnyRunStatus;
	/** A `failed` v2 job the server reports `expired` (it no longer knows the job): shown as Expired, as on its page. */
	expired?: boolean;
	createdAt: number;
	durationMs: number | null;
	seed: number | null;
	/** `X-Service-Credits-Used` when the service reported it: credits, in the service's own unit. */
	credits: number | null;
	/** Index of the first image output, for a thumbnail (workflow runs). */
	thumbnail: number | null;
	/** The saved bytes of the first image of a model result, else of its first video, for a thumbnail (model runs). */
	modelThumb: { key: string; mime: string } | null;
	/**
	 * What the first output is, for the row when there is no picture: its kind's icon (audio a
	 * waveform), and for text its first line. Absent while nothing came out (and in older entries).
	 */
	firstOutput?: FirstOutput;
	elsewhere: boolean;
	/** The run's page: one page for every kind of run. */
	href: string;
	/** Workflow job id, for cancelling from the list. */
	promptId: string | null;
	/** The sweep this run is a cell of: the Runs list shows the sweep as one entry. */
	sweepId?: string;
	/** On the Runs list's entry standing for a sweep: every run of it, which act together (delete). */
	cellIds?: readonly string[];
	/** A pool took this waiting run off its member and sent it to another as the run `runId` (`WorkflowRun.movedTo`). */
	movedTo?: { runId: string; profileId: string };
	/** The run this one replaces: a pool took it off the member `profileId` and sent it here. */
	movedFrom?: { runId: string; profileId: string };
}

export interface FirstOutput {
	kind: ResultKind;
	/** A text output's first line (bounded). */
	line?: string;
}
