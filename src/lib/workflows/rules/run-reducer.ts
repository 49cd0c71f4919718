/**
 * How a workflow run moves: a pure function of the run and one event, whether the event came from
 * the socket, a status poll or the history. Progress never goes backwards and a finished run stays
 * finished, whatever order the messages arrive in after a reconnect.
 */
import type { NodeOutput, ServerEvent } from '../protocol/workflow-events';
import type { HistoryEntry, JobState, NodeUiOutput } from '../protocol/workflow-api';
import { nodesFromCount } from './node-count-progress';
import { advances, EXPIRED_EXCEPTION, isTerminal, type RunError, type RunOutput, type RunStatus, type WorkflowRun } from './run-record';

function withStatus(run: WorkflowRun, status: RunStatus, now: number): WorkflowRun {
	if (!advances(run.status, status) || run.status === status) return run;
	const next: WorkflowRun = { ...run, status };
	if (status === 'queued') next.queuedAt ??= now;
	if (status === 'running') next.startedAt ??= now;
	if (isTerminal(status)) {
		next.finishedAt ??= now;
		next.progress = { ...run.progress, current: null, step: null, finishing: false };
	}
	return next;
}

function addDone(run: WorkflowRun, nodes: string[]): WorkflowRun {
	const fresh = nodes.filter((n) => !run.progress.done.includes(n));
	return fresh.length === 0 ? run : { ...run, progress: { ...run.progress, done: [...run.progress.done, ...fresh] } };
}

function addCached(run: WorkflowRun, nodes: string[]): WorkflowRun {
	const known = run.progress.cached ?? [];
	const fresh = nodes.filter((n) => !known.includes(n));
	return fresh.length === 0 ? run : { ...run, progress: { ...run.progress, cached: [...known, ...fresh] } };
}

/**
 * A local ComfyUI reports SaveWEBM's and SaveVideo's files under `images` (with `animated: [true]`);
 * the cloud service under `video`. A file with a video's name is a video wherever it is listed.
 */
const VIDEO_FILE = /\.(webm|mp4|m4v|mov|mkv)$/i;

function outputsOf(nodeId: string, output: Pick<NodeOutput, 'images' | 'video' | 'audio' | 'files'>): RunOutput[] {
	return [
		...output.images.map((ref) => ({ nodeId, kind: VIDEO_FILE.test(ref.filename) ? ('video' as const) : ('image' as const), ref })),
		...output.video.map((ref) => ({ nodeId, kind: 'video' as const, ref })),
		...output.audio.map((ref) => ({ nodeId, kind: 'audio' as const, ref })),
		...(output.files ?? []).map((ref) => ({ nodeId, kind: 'file' as const, ref }))
	];
}

/**
 * ComfyUI's text outputs (`{"text": ["..."]}`, e.g. PreviewAny): strings only, each kept once per
 * node. v2 names each one (`names`, same order).
 */
function addTexts(run: WorkflowRun, nodeId: string, value: unknown, names?: unknown): WorkflowRun {
	if (!Array.isArray(value)) return run;
	const nameAt = (i: number) => (Array.isArray(names) && typeof names[i] === 'string' && names[i] ? { name: names[i] as string } : {});
	const texts = value.flatMap((text, i) => (typeof text === 'string' ? [{ nodeId, text, ...nameAt(i) }] : []));
	const known = run.texts ?? [];
	const fresh = texts.filter((t) => !known.some((k) => k.nodeId === nodeId && k.text === t.text));
	return fresh.length === 0 ? run : { ...run, texts: [...known, ...fresh] };
}

function interrupted(run: WorkflowRun, nodeId: string | null, nodeType: string | null, now: number): WorkflowRun {
	const next = withStatus(run, 'interrupted', now);
	return next === run ? run : { ...next, interruptedAt: { nodeId, nodeType } };
}

function addOutputs(run: WorkflowRun, outputs: RunOutput[]): WorkflowRun {
	const key = (o: RunOutput) => `${o.ref.type}/${o.ref.subfolder}/${o.ref.filename}`;
	const seen = new Set(run.outputs.map(key));
	const fresh = outputs.filter((o) => !seen.has(key(o)));
	// v2 links are renewed on every read: a known output takes the latest expiry (its index never moves).
	const renewed = new Map(outputs.filter((o) => o.ref.link).map((o) => [key(o), o.ref.link!]));
	let changed = false;
	const known = run.outputs.map((o) => {
		const link = renewed.get(key(o));
		if (!link || (o.ref.link && Date.parse(o.ref.link.expiresAt) >= Date.parse(link.expiresAt))) return o;
		changed = true;
		return { ...o, ref: { ...o.ref, link } };
	});
	return fresh.length === 0 && !changed ? run : { ...run, outputs: [...known, ...fresh] };
}

/**
 * A count of finished nodes (no ids): the nodes it surely covers are done, and the one node that
 * must run next, if the graph leaves only one, is the current node. Counts never go backwards.
 */
function applyNodeCount(run: WorkflowRun, count: number): WorkflowRun {
	if (run.progress.counted !== undefined && count <= run.progress.counted) return run;
	const counted = nodesFromCount(run.prompt, count);
	const next = addDone({ ...run, progress: { ...run.progress, counted: count } }, counted.done);
	const current = next.progress.current;
	if (current !== null && !next.progress.done.includes(current)) return next;
	return { ...next, progress: { ...next.progress, current: counted.running } };
}

export const EXCEPTION_WORDS: Record<string, string> = {
	ValidationError: 'The workflow or one of its inputs is not valid.',
	ModelDownloadError: 'A model the workflow needs is not available, or its download failed.',
	ImageDownloadError: 'An input image could not be downloaded from its URL.',
	OOMError: 'The GPU ran out of memory. Try a smaller size or batch.',
	InsufficientFundsError: 'The account has too few credits for the partner nodes of this workflow. Add credits and run again.',
	InactiveSubscriptionError: 'The subscription is not active. Renew it to run workflows.',
	[EXPIRED_EXCEPTION]:
		'The job expired on the service before it finished. What was saved here (inputs, outputs already fetched) is still available.'
};

/** Applies one socket event that belongs to this run (the caller filtered by prompt id). */
export function applyServerEvent(run: WorkflowRun, event: ServerEvent, now: number): WorkflowRun {
	// A failure polled first may still learn its reason from the socket.
	const explainsFailure = event.type === 'execution_error' && run.status === 'failed' && !run.error?.exceptionType;
	if (isTerminal(run.status) && event.type !== 'executed' && !explainsFailure) return run;
	switch (event.type) {
		case 'execution_start':
			return withStatus(run, 'running', now);
		case 'execution_cached':
			return addCached(addDone(withStatus(run, 'running', now), event.nodes), event.nodes);
		case 'executing': {
			let next = withStatus(run, 'running', now);
			const previous = next.progress.current;
			if (previous && previous !== event.node) next = addDone(next, [previous]);
			if (event.node === null) return { ...next, progress: { ...next.progress, current: null, step: null, finishing: true } };
			return { ...next, progress: { ...next.progress, current: event.node } };
		}
		case 'progress': {
			const node = event.node ?? run.progress.current ?? '';
			const step = run.progress.step;
			// Never backwards within a node (a replayed or reordered frame after a reconnect).
			if (step && step.node === node && event.value < step.value) return run;
			return { ...withStatus(run, 'running', now), progress: { ...run.progress, step: { node, value: event.value, max: event.max } } };
		}
		case 'nodes_counted':
			return applyNodeCount(withStatus(run, 'running', now), event.done);
		case 'executed':
			return addDone(
				addTexts(
					addOutputs(run, outputsOf(event.node, event.output)),
					event.node,
					event.output.other['text'],
					event.output.other['textNames']
				),
				[event.node]
			);
		case 'execution_success':
			return withStatus(run, 'succeeded', now);
		case 'execution_error': {
			const error: RunError = {
				kind: 'execution',
				title: event.exceptionType,
				message: EXCEPTION_WORDS[event.exceptionType] ?? 'The workflow failed while running.',
				exceptionType: event.exceptionType,
				...(event.nodeId ? { nodeId: event.nodeId } : {}),
				...(event.nodeType ? { nodeType: event.nodeType } : {}),
				traceback: [event.exceptionMessage, ...event.traceback].filter(Boolean)
			};
			return { ...withStatus(run, 'failed', now), error, progress: { ...run.progress, current: null, step: null, finishing: false } };
		}
		case 'execution_interrupted':
			return interrupted(run, event.nodeId ?? run.progress.current, event.nodeType ?? null, now);
		case 'notification':
			return event.value ? { ...run, notifications: [...run.notifications, event.value].slice(-20) } : run;
		default:
			return run;
	}
}

/** The service is cancelling the job (v2 `canceling`): said until the terminal state, never as cancelled before it. */
export function applyCanceling(run: WorkflowRun): WorkflowRun {
	return run.canceling || isTerminal(run.status) ? run : { ...run, canceling: true };
}

/** Applies a polled `/api/job/{id}/status`. */
export function applyJobState(run: WorkflowRun, state: JobState, now: number): WorkflowRun {
	switch (state) {
		case 'pending':
			return withStatus(run, 'queued', now);
		case 'in_progress':
			return withStatus(run, 'running', now);
		case 'completed':
			return withStatus(run, 'succeeded', now);
		case 'failed':
			// The reason comes from the socket's execution_error or the history; see explainFailure.
			return withStatus(run, 'failed', now);
		case 'cancelled':
			return withStatus(run, 'cancelled', now);
	}
}

function uiOutputs(nodeId: string, output: NodeUiOutput): RunOutput[] {
	return outputsOf(nodeId, {
		images: output.images ?? [],
		video: output.video ?? [],
		audio: output.audio ?? [],
		files: output.files ?? []
	});
}

/** Applies a history entry (the local runtime's only record of a job, and the outputs' source of truth). */
export function applyHistory(run: WorkflowRun, entry: HistoryEntry, now: number): WorkflowRun {
	let next = run;
	const cached = entry.status.messages.find(([type]) => type === 'execution_cached')?.[1]?.['nodes'];
	if (Array.isArray(cached))
		next = addCached(
			next,
			cached.filter((n): n is string => typeof n === 'string')
		);
	for (const [nodeId, output] of Object.entries(entry.outputs))
		next = addTexts(addOutputs(next, uiOutputs(nodeId, output)), nodeId, output.text, output.textNames);
	if (!entry.status.completed && entry.status.status_str !== 'error' && entry.status.status_str !== 'cancelled') return next;
	if (entry.status.status_str === 'success') return addDone(withStatus(next, 'succeeded', now), Object.keys(entry.outputs));
	// Stopped mid-run is interrupted, whatever the status word: the cloud marks such a job `cancelled` too,
	// and which of history and socket event came first must not decide what the run is called.
	const stop = entry.status.messages.find(([type]) => type === 'execution_interrupted')?.[1];
	if (stop) {
		const at = (key: string) => (typeof stop[key] === 'string' ? (stop[key] as string) : null);
		return interrupted(next, at('node_id'), at('node_type'), now);
	}
	if (entry.status.status_str === 'cancelled') return withStatus(next, 'cancelled', now);
	const failure = entry.status.messages.find(([type]) => type === 'execution_error');
	if (next.error?.exceptionType) return withStatus(next, 'failed', now);
	const data = failure?.[1] ?? {};
	const exceptionType = typeof data['exception_type'] === 'string' ? data['exception_type'] : 'Error';
	const message = typeof data['exception_message'] === 'string' ? data['exception_message'] : '';
	return {
		...withStatus(next, 'failed', now),
		error: {
			kind: 'execution',
			title: exceptionType === EXPIRED_EXCEPTION ? 'Expired' : exceptionType,
			message: EXCEPTION_WORDS[exceptionType] ?? 'The workflow failed while running.',
			exceptionType,
			...(typeof data['node_id'] === 'string' ? { nodeId: data['node_id'] } : {}),
			traceback: message ? [message] : []
		}
	};
}

/** A failed run always says something: when neither the socket nor the history gave a reason. */
export function explainFailure(run: WorkflowRun): WorkflowRun {
	if (run.status !== 'failed' || run.error) return run;
	return { ...run, error: { kind: 'execution', title: 'Failed', message: 'The job failed. The service gave no details.' } };
}
