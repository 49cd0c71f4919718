/**
 * A v2 job in the terms the shared run reducer speaks: its status as a job state, its outputs and
 * failure as a history entry, and each stream event as the socket events the reducer already folds.
 * Outputs are referenced by asset id (`FileRef.filename`, fetched through `/assets/{id}/content`)
 * and labelled by their `name`. A `text` output's content is fetched by the caller and passed in
 * (`texts`, by asset id): it joins the run's text outputs; one whose content is not at hand is kept
 * as a download instead, so nothing is lost. `file` and `latent` outputs are downloads.
 */
import type { FileRef, HistoryEntry, HistoryMessage, JobState, NodeUiOutput } from '../protocol/workflow-api';
import type { JsonObject } from '../../core/protocol/json';
import type { ServerEvent } from '../protocol/workflow-events';
import type { JobStatus, V2Job, V2Output, V2Progress } from '../protocol/workflow-v2';
import type { V2StreamEvent } from '../protocol/v2-events';
import { progressView } from '../protocol/v2-events';
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

/** What an output is called: its `name`, or its node and its index among that node's outputs. */
export function outputLabel(output: Pick<V2Output, 'name' | 'node_id'>, index: number): string {
	return output.name || `Node ${output.node_id} #${index + 1}`;
}

type RefSource = Pick<V2Output, 'id'> & Partial<Pick<V2Output, 'url' | 'url_expires_at' | 'content_type' | 'size_bytes'>>;

export function outputRef(output: RefSource, label?: string, asFile = false): FileRef {
	const { url, url_expires_at: expiresAt } = output;
	const link = url && expiresAt ? webLink({ url, expiresAt }) : null;
	return {
		filename: output.id,
		subfolder: '',
		type: 'output',
		...(link ? { link } : {}),
		...(label ? { label } : {}),
		...(asFile && output.content_type ? { contentType: output.content_type } : {}),
		// The proxy reports 0 for sizes it does not know.
		...(asFile && output.size_bytes ? { sizeBytes: output.size_bytes } : {})
	};
}

/**
 * Where an output goes in a node's UI output; a text whose content is not at hand is a download.
 * The real proxy in front of ComfyUI 0.3.64 types SaveVideo's mp4 `image` (ComfyUI lists it under
 * `images`), with `content_type: video/mp4`: the content type tells a video there.
 */
function slotOf(o: V2Output, texts: ReadonlyMap<string, string>): 'images' | 'video' | 'audio' | 'files' | 'text' {
	switch (o.type) {
		case 'image':
			return o.content_type.startsWith('video/') ? 'video' : 'images';
		case 'video':
		case 'audio':
			return o.type;
		case 'text':
			return texts.has(o.id) ? 'text' : 'files';
		default:
			return 'files';
	}
}

/** One output as a node's UI output, named; `index` is its place among its node's outputs. */
export function nodeOutputOf(o: V2Output, index: number, texts: ReadonlyMap<string, string> = new Map()): NodeUiOutput {
	const label = outputLabel(o, index);
	const slot = slotOf(o, texts);
	if (slot === 'text') return { text: [texts.get(o.id)!], textNames: [label] };
	return { [slot]: [outputRef(o, label, slot === 'files')] };
}

function uiOutputs(outputs: readonly V2Output[], texts: ReadonlyMap<string, string>): Record<string, NodeUiOutput> {
	const byNode: Record<string, NodeUiOutput> = Object.create(null) as Record<string, NodeUiOutput>;
	const counts = new Map<string, number>();
	for (const o of outputs) {
		const index = counts.get(o.node_id) ?? 0;
		counts.set(o.node_id, index + 1);
		const entry = (byNode[o.node_id] ??= {});
		for (const [key, values] of Object.entries(nodeOutputOf(o, index, texts)) as Array<[keyof NodeUiOutput, unknown[]]>)
			((entry[key] ??= []) as unknown[]).push(...values);
	}
	return byNode;
}

/** A terminal job as a history entry: outputs (`texts`: fetched text content by asset id), and why it failed or expired. */
export function historyOf(job: V2Job, texts: ReadonlyMap<string, string> = new Map(), now = Date.now()): HistoryEntry {
	const messages: HistoryMessage[] = [];
	if (job.status === 'failed' || job.status === 'expired') {
		const expired = job.status === 'expired';
		messages.push([
			'execution_error',
			{
				exception_type: expired ? EXPIRED_EXCEPTION : (job.error?.code ?? 'Error'),
				exception_message: expired ? expiredCause(job, now) : (job.error?.message ?? ''),
				...(job.error?.node_id ? { node_id: job.error.node_id } : {})
			}
		]);
	}
	return {
		prompt: [0, job.id, {}, {}, []],
		outputs: uiOutputs(job.outputs, texts),
		status: {
			status_str: job.status === 'succeeded' ? 'success' : job.status === 'canceled' ? 'cancelled' : 'error',
			completed: job.status === 'succeeded',
			messages
		},
		meta: {}
	};
}

/**
 * A progress snapshot says the job runs (the proxy sends one only then: on connect it carries a
 * `running` job's placeholder of zeros, and its stream never says `running` after a `queued`).
 * Its node count counts even without ids (the proxy in front of ComfyUI 0.3.64 sends no `current_node`).
 */
/**
 * Why a job reads `expired`. Past its `expires_at`, its retention ended. Before it, the server forgot
 * it: the self-hosted proxy says `expired` for a job ComfyUI behind it no longer knows (restarted, or
 * the job was deleted from its queue).
 */
export function expiredCause(job: Pick<V2Job, 'expires_at'>, now: number): string {
	const deadline = Date.parse(job.expires_at);
	if (Number.isNaN(deadline) || now >= deadline) return `Retention ended at ${job.expires_at}.`;
	return 'The server no longer knows this job: the ComfyUI behind it restarted or removed it before the job ended.';
}

function progressEvents(jobId: string, p: V2Progress): ServerEvent[] {
	const events: ServerEvent[] = [{ type: 'execution_start', promptId: jobId }];
	events.push({ type: 'nodes_counted', promptId: jobId, done: p.nodes_done });
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
 * stream's end triggers (`GET urls.self` is the truth); previews are handled apart (bytes). For an
 * `output`, `index` is its place among its node's outputs and `text` the content of a `text` output.
 */
export function serverEventsOf(jobId: string, event: V2StreamEvent, index = 0, text?: string): ServerEvent[] {
	switch (event.kind) {
		case 'status':
			return event.event.status === 'running' ? [{ type: 'execution_start', promptId: jobId }] : [];
		case 'progress':
			return progressEvents(jobId, event.progress);
		case 'output': {
			const o = event.output;
			const ui = nodeOutputOf(o, index, text === undefined ? new Map() : new Map([[o.id, text]]));
			const output = {
				images: ui.images ?? [],
				video: ui.video ?? [],
				audio: ui.audio ?? [],
				files: ui.files ?? [],
				other: (ui.text ? { text: ui.text, textNames: ui.textNames ?? [] } : {}) as JsonObject
			};
			return [{ type: 'executed', promptId: jobId, node: o.node_id, output }];
		}
		default:
			return [];
	}
}
