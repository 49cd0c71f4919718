/**
 * A v2 job in the terms the shared run reducer speaks: its status as a job state, its outputs and
 * failure as a history entry, and each stream event as the socket events the reducer already folds.
 * Outputs are referenced by asset id (`FileRef.filename`, fetched through `/assets/{id}/content`).
 */
import type { FileRef, HistoryEntry, HistoryMessage, JobState, NodeUiOutput } from '../wire/workflow-api';
import type { ServerEvent } from '../wire/workflow-events';
import type { JobStatus, V2Job, V2Output, V2Progress } from '../wire/workflow-v2';
import type { V2StreamEvent } from './v2-events';
import { progressView } from './v2-events';
import { EXPIRED_EXCEPTION } from './run-record';

/** How an uploaded asset is named in a prompt until submit turns it into a `core/ASSET` reference. */
export const ASSET_NAME_PREFIX = 'core/ASSET:';

export function assetInputName(assetId: string): string {
	return ASSET_NAME_PREFIX + assetId;
}

const STATE_OF: Record<JobStatus, JobState> = {
	queued: 'pending',
	running: 'in_progress',
	// Never reported as cancelled before the job's terminal state says so (the proxy runs on).
	canceling: 'in_progress',
	succeeded: 'completed',
	canceled: 'cancelled',
	failed: 'failed',
	expired: 'failed'
};

export function jobStateOf(status: JobStatus): JobState {
	return STATE_OF[status];
}

/**
 * A link fit to show: an http(s) URL with a readable expiry. Records come back from IndexedDB and
 * history files unchecked, so a `javascript:` URL or a broken date is dropped here, where it is shown.
 */
export function webLink(link: FileRef['link'] | undefined): { url: string; expiresAt: string } | null {
	if (!link || typeof link.url !== 'string' || typeof link.expiresAt !== 'string') return null;
	if (!/^https?:\/\//i.test(link.url) || Number.isNaN(Date.parse(link.expiresAt))) return null;
	return { url: link.url, expiresAt: link.expiresAt };
}

export function outputRef(output: Pick<V2Output, 'id'> & Partial<Pick<V2Output, 'url' | 'url_expires_at'>>): FileRef {
	const { url, url_expires_at: expiresAt } = output;
	const link = url && expiresAt ? webLink({ url, expiresAt }) : null;
	return { filename: output.id, subfolder: '', type: 'output', ...(link ? { link } : {}) };
}

function uiOutputs(outputs: readonly V2Output[]): Record<string, NodeUiOutput> {
	const byNode: Record<string, NodeUiOutput> = Object.create(null) as Record<string, NodeUiOutput>;
	for (const o of outputs) {
		const slot = o.type === 'video' ? 'video' : o.type === 'audio' ? 'audio' : o.type === 'image' ? 'images' : null;
		if (!slot) continue;
		const entry = (byNode[o.node_id] ??= {});
		(entry[slot] ??= []).push(outputRef(o));
	}
	return byNode;
}

/** A terminal job as a history entry: outputs, and why it failed or expired. */
export function historyOf(job: V2Job): HistoryEntry {
	const messages: HistoryMessage[] = [];
	if (job.status === 'failed' || job.status === 'expired') {
		const expired = job.status === 'expired';
		messages.push([
			'execution_error',
			{
				exception_type: expired ? EXPIRED_EXCEPTION : (job.error?.code ?? 'Error'),
				exception_message: expired ? `Retention ended at ${job.expires_at}.` : (job.error?.message ?? ''),
				...(job.error?.node_id ? { node_id: job.error.node_id } : {})
			}
		]);
	}
	return {
		prompt: [0, job.id, {}, {}, []],
		outputs: uiOutputs(job.outputs),
		status: {
			status_str: job.status === 'succeeded' ? 'success' : job.status === 'canceled' ? 'cancelled' : 'error',
			completed: job.status === 'succeeded',
			messages
		},
		meta: {}
	};
}

function progressEvents(jobId: string, p: V2Progress): ServerEvent[] {
	const events: ServerEvent[] = [];
	const node = p.current_node ?? undefined;
	if (node) events.push({ type: 'executing', promptId: jobId, node });
	// Show what is true: sampler steps when the snapshot has them; node counts only when they make a fraction.
	if (p.step != null && p.steps) events.push({ type: 'progress', promptId: jobId, node, value: p.step, max: p.steps });
	else if (progressView(p, true).kind === 'fraction' && p.nodes_total > 0)
		events.push({ type: 'progress', promptId: jobId, node, value: p.nodes_done, max: p.nodes_total });
	return events;
}

/**
 * The socket events a stream event stands for. Terminal statuses are left to the poll that the
 * stream's end triggers (`GET urls.self` is the truth); previews are handled apart (bytes).
 */
export function serverEventsOf(jobId: string, event: V2StreamEvent): ServerEvent[] {
	switch (event.kind) {
		case 'status':
			return event.event.status === 'running' ? [{ type: 'execution_start', promptId: jobId }] : [];
		case 'progress':
			return progressEvents(jobId, event.progress);
		case 'output': {
			const o = event.output;
			const ref = outputRef(o);
			const output = {
				images: o.type === 'image' ? [ref] : [],
				video: o.type === 'video' ? [ref] : [],
				audio: o.type === 'audio' ? [ref] : [],
				other: {}
			};
			return [{ type: 'executed', promptId: jobId, node: o.node_id, output }];
		}
		default:
			return [];
	}
}
