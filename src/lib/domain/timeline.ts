/**
 * The Runs timeline: one compact entry per run, workflow job or model request alike, so ten
 * thousand of them load and filter fast. Entries are derived from the full records and can always be
 * rebuilt from them.
 */
import type { ModelRun } from './model-run';
import type { WorkflowRun } from './run-record';

export type TimelineKind = 'workflow' | 'model';
export type TimelineStatus =
	'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted' | 'lost' | 'unknown';

export interface TimelineEntry {
	id: string;
	kind: TimelineKind;
	profileId: string;
	title: string;
	/** The model id, or the workflow's saved id. */
	subject: string | null;
	status: TimelineStatus;
	createdAt: number;
	durationMs: number | null;
	seed: number | null;
	/** `X-Service-Credits-Used` when the service reported it: credits, in the service's own unit. */
	credits: number | null;
	/** Index of the first image output, for a thumbnail (workflow runs). */
	thumbnail: number | null;
	/** The saved bytes of the first image of a model result, for a thumbnail (model runs). */
	modelThumb: { key: string; mime: string } | null;
	elsewhere: boolean;
	/** The run's page. */
	href: string;
	/** Workflow job id, for cancelling from the list. */
	promptId: string | null;
}

const duration = (start?: number, end?: number) => (start && end && end >= start ? end - start : null);

export function workflowEntry(run: WorkflowRun): TimelineEntry {
	const image = run.outputs.findIndex((o) => o.kind === 'image');
	return {
		id: run.id,
		kind: 'workflow',
		profileId: run.profileId,
		title: run.title,
		subject: run.workflowId,
		status: run.status,
		createdAt: run.createdAt,
		durationMs: duration(run.startedAt, run.finishedAt),
		seed: Object.values(run.seeds)[0] ?? null,
		credits: null,
		thumbnail: image >= 0 ? image : null,
		modelThumb: null,
		elsewhere: run.elsewhere === true,
		href: `/runs/${run.id}`,
		promptId: run.promptId
	};
}

export function modelEntry(run: ModelRun): TimelineEntry {
	const image = run.result?.assets.find((a) => a.kind === 'image' && a.bytesKey);
	return {
		id: run.id,
		kind: 'model',
		profileId: run.profileId,
		title: run.title,
		subject: run.modelId,
		status: run.status,
		createdAt: run.createdAt,
		durationMs: duration(run.startedAt ?? run.createdAt, run.finishedAt),
		seed: Object.values(run.seeds ?? {})[0] ?? null,
		credits: run.creditsUsed ?? null,
		thumbnail: null,
		modelThumb: image?.bytesKey ? { key: image.bytesKey, mime: image.mime ?? 'image/png' } : null,
		elsewhere: false,
		href: `/models/runs/${run.id}`,
		promptId: null
	};
}

export interface TimelineFilter {
	profileId: string | null;
	kind: TimelineKind | null;
	status: 'open' | 'succeeded' | 'failed' | 'cancelled' | null;
	text: string;
}

export const NO_FILTER: TimelineFilter = { profileId: null, kind: null, status: null, text: '' };
const OPEN = new Set<TimelineStatus>(['submitting', 'queued', 'running']);

export function isOpen(entry: Pick<TimelineEntry, 'status'>): boolean {
	return OPEN.has(entry.status);
}

/** Newest first, matching every part of the filter; text matches title or model/workflow. */
export function filterTimeline(entries: readonly TimelineEntry[], filter: TimelineFilter): TimelineEntry[] {
	const text = filter.text.trim().toLowerCase();
	return entries
		.filter(
			(e) =>
				(filter.profileId === null || e.profileId === filter.profileId) &&
				(filter.kind === null || e.kind === filter.kind) &&
				(filter.status === null ||
					(filter.status === 'open'
						? isOpen(e)
						: filter.status === 'failed'
							? e.status === 'failed' || e.status === 'unknown' || e.status === 'lost'
							: filter.status === 'cancelled'
								? e.status === 'cancelled' || e.status === 'interrupted'
								: e.status === filter.status)) &&
				(text === '' || e.title.toLowerCase().includes(text) || (e.subject ?? '').toLowerCase().includes(text))
		)
		.sort((a, b) => b.createdAt - a.createdAt);
}
