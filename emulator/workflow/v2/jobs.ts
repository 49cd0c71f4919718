/**
 * v2 jobs: a v2 job IS an engine job (same id, queue, execution, events and outputs; a v1 socket
 * sees it). This book keeps what v2 adds: the surface that made it, times, the latest progress
 * snapshot and preview, outputs as assets, the error, cancel and expiry, and the event channel.
 * It learns everything from the engine's observer hook.
 */
import type { JobState, NodeUiOutput } from '../../../src/lib/workflows/protocol/workflow-api';
import type { JobStatus, V2JobError, V2PreviewEvent, V2Progress } from '../../../src/lib/workflows/protocol/workflow-v2';
import type { WorkflowEngine } from '../engine';
import type { Job } from '../jobs';
import { JobChannel, THROTTLE_MS } from './sse';
import type { SurfaceRules } from './surface';

/** How long a job stays pollable (the platform's retention). */
export const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface OutputEntry {
	nodeId: string;
	name: string;
	type: 'image' | 'video' | 'audio' | 'text' | 'file';
	assetId: string;
}

export interface JobRecord {
	id: string;
	rules: SurfaceRules;
	createdAt: number;
	startedAt: number | null;
	completedAt: number | null;
	expiresAt: number;
	canceling: boolean;
	expired: boolean;
	progress: V2Progress | null;
	preview: V2PreviewEvent | undefined;
	outputs: OutputEntry[];
	/** Outputs the proxy sends only after the terminal status. */
	heldOutputs: OutputEntry[];
	error: V2JobError | null;
	channel: JobChannel;
	/** The terminal status went out on the channel. */
	announcedEnd: boolean;
	/** Text outputs still being stored as assets: the terminal status waits for them (outputs are committed first). */
	pendingOutputs: number;
	/** When the last progress frame went out (the 0.3.64 proxy's drop-only throttle). */
	lastProgressAt: number;
}

export interface JobHooks {
	/** Makes the output's asset (in the surface's id style) and gives its id. */
	outputAsset(rec: JobRecord, file: { type: 'output' | 'temp'; filename: string }): string | undefined;
	/** Stores a text output (`text/plain`) as an output asset and gives its id. */
	textAsset(rec: JobRecord, text: string, name: string): Promise<string>;
	/** The Output object for an entry, with a fresh url. */
	outputBody(rec: JobRecord, entry: OutputEntry): unknown;
	now(): number;
	/** The proxy in front of ComfyUI 0.3.64 (the spec page's last subsection). */
	upstream064(rec: JobRecord): boolean;
}

export function engineStatus(state: JobState, rec: JobRecord): JobStatus {
	if (rec.expired) return 'expired';
	switch (state) {
		case 'pending':
			return 'queued';
		case 'in_progress':
			return rec.canceling ? 'canceling' : 'running';
		case 'completed':
			return 'succeeded';
		case 'failed':
			return 'failed';
		case 'cancelled':
			return 'canceled';
	}
}

export function isTerminal(status: JobStatus): boolean {
	return status === 'succeeded' || status === 'failed' || status === 'canceled' || status === 'expired';
}

export class V2Jobs {
	readonly records = new Map<string, JobRecord>();

	constructor(
		private readonly engine: WorkflowEngine,
		private readonly hooks: JobHooks
	) {
		engine.observers.add({
			event: (type, data) => this.onEvent(type, data),
			preview: (promptId, nodeId, jpeg) => {
				const rec = this.records.get(promptId);
				if (!rec) return;
				rec.preview = { node_id: nodeId, content_type: 'image/jpeg', data_base64: jpeg.toString('base64') };
				rec.channel.preview.push(rec.preview);
			},
			text: (promptId, _nodeId, text) => this.records.get(promptId)?.channel.broadcast('log', { level: 'info', message: text })
		});
	}

	add(id: string, rules: SurfaceRules): JobRecord {
		const now = this.hooks.now();
		const rec: JobRecord = {
			id,
			rules,
			createdAt: now,
			startedAt: null,
			completedAt: null,
			expiresAt: now + JOB_RETENTION_MS,
			canceling: false,
			expired: false,
			progress: null,
			preview: undefined,
			outputs: [],
			heldOutputs: [],
			error: null,
			channel: new JobChannel(),
			announcedEnd: false,
			pendingOutputs: 0,
			lastProgressAt: -Infinity
		};
		this.records.set(id, rec);
		return rec;
	}

	engineJob(rec: JobRecord): Job | undefined {
		return this.engine.book.jobs.get(rec.id);
	}

	status(rec: JobRecord): JobStatus {
		const job = this.engineJob(rec);
		if (!job) return 'expired';
		// "A pending job deleted from ComfyUI's own queue shows as `expired`" (0.3.64).
		if (job.state === 'cancelled' && rec.startedAt === null && this.hooks.upstream064(rec)) return 'expired';
		// Like the real proxy, an interrupted job reads `canceled` (its history holds execution_interrupted), even
		// where the local runtime records the stop as a failure; so does one interrupted on the ComfyUI behind it.
		const interrupted = job.state === 'failed' && job.messages.some(([type]) => type === 'execution_interrupted');
		const status = interrupted ? 'canceled' : engineStatus(job.state, rec);
		// A job is not finished before its outputs are committed.
		return rec.pendingOutputs > 0 && (status === 'succeeded' || status === 'failed' || status === 'canceled') ? 'running' : status;
	}

	queuePosition(rec: JobRecord): number | null {
		const index = this.engine.book.pendingJobs().findIndex((j) => j.id === rec.id);
		return index < 0 ? null : index;
	}

	/**
	 * Applies the retention deadline: a job not finished by `expires_at` becomes `expired` (and
	 * stops); a finished one past it is gone (undefined).
	 */
	live(rec: JobRecord): JobRecord | undefined {
		if (this.hooks.now() < rec.expiresAt) return rec;
		const status = this.status(rec);
		if (isTerminal(status)) return status === 'expired' ? rec : undefined;
		rec.expired = true;
		rec.completedAt = this.hooks.now();
		this.engine.delete([rec.id]);
		this.announce(rec);
		return rec;
	}

	/** Emits a status change; on a terminal status ends the streams (after the proxy's held outputs). */
	announce(rec: JobRecord): void {
		const status = this.status(rec);
		if (rec.announcedEnd || (rec.pendingOutputs > 0 && rec.completedAt !== null)) return;
		// 0.3.64: "The stream sends `status` on connect and at the end only".
		if (!isTerminal(status) && this.hooks.upstream064(rec)) return;
		if (isTerminal(status)) rec.channel.flush();
		rec.channel.broadcast('status', status === 'queued' ? { status, queue_position: this.queuePosition(rec) } : { status });
		if (!isTerminal(status)) return;
		rec.announcedEnd = true;
		for (const entry of rec.heldOutputs.splice(0)) rec.channel.broadcast('output', this.hooks.outputBody(rec, entry));
		rec.channel.endAll();
	}

	private onEvent(type: string, data: Record<string, unknown>): void {
		const id = data['prompt_id'];
		const rec = typeof id === 'string' ? this.records.get(id) : undefined;
		if (!rec || rec.expired) return;
		switch (type) {
			case 'execution_start':
				rec.startedAt = this.hooks.now();
				this.announce(rec);
				return;
			case 'progress_state':
				if (this.hooks.upstream064(rec)) {
					// The real proxy forwards a frame only when 500 ms passed since the last one, and drops the rest
					// (no trailing send): the frame naming the next running node, right after a node finished, is lost.
					const at = this.hooks.now();
					if (at - rec.lastProgressAt < THROTTLE_MS) return;
					rec.lastProgressAt = at;
					rec.progress = proxy064Progress(data['nodes']);
					rec.channel.broadcast('progress', rec.progress);
					return;
				}
				rec.progress = snapshot(data['nodes'], this.engineJob(rec));
				rec.channel.progress.push(rec.progress);
				return;
			case 'executed':
				this.addOutputs(rec, String(data['node']), data['output'] as NodeUiOutput);
				return;
			case 'execution_error': {
				const nodeId = typeof data['node_id'] === 'string' ? data['node_id'] : null;
				const traceback = Array.isArray(data['traceback']) ? data['traceback'].join('') : null;
				rec.error = {
					code: 'node_execution_error',
					message: `${String(data['exception_type'])}: ${String(data['exception_message'])}`,
					node_id: nodeId,
					class_type: typeof data['node_type'] === 'string' ? data['node_type'] : null,
					traceback: rec.rules.proxyStream ? null : traceback
				};
				rec.channel.broadcast('log', { level: 'error', message: rec.error.message });
				this.end(rec);
				return;
			}
			case 'execution_success':
			case 'execution_interrupted':
				this.end(rec);
		}
	}

	private end(rec: JobRecord): void {
		rec.completedAt = this.hooks.now();
		rec.canceling = false;
		// Deferred until every observer of the terminal event has run (the engine state is already final).
		queueMicrotask(() => this.announce(rec));
	}

	private addOutputs(rec: JobRecord, nodeId: string, ui: NodeUiOutput | undefined): void {
		if (!ui) return;
		// A 3D model (ComfyUI's `3d` entry, SaveGLB) has no preview: the contract's `file`, a download.
		const models = (ui as { '3d'?: typeof ui.images })['3d'];
		const groups: Array<['image' | 'video' | 'audio' | 'file', typeof ui.images]> = [
			['image', ui.images],
			['video', ui.video],
			['audio', ui.audio],
			['file', models]
		];
		for (const [kind, refs] of groups) {
			for (const ref of refs ?? []) {
				if (ref.type === 'input') continue;
				const assetId = this.hooks.outputAsset(rec, ref as { type: 'output' | 'temp'; filename: string });
				if (!assetId) continue;
				const type = kind === 'image' && ui.animated?.[0] && rec.rules.animatedAsVideo ? 'video' : kind;
				this.commit(rec, { nodeId, name: ref.filename, type, assetId });
			}
		}
		// The contract: a text-producing node's output (PreviewAny) is an Output of type `text`. The proxy drops them.
		if (!rec.rules.textOutputs) return;
		(ui.text ?? []).forEach((text, i) => {
			if (typeof text !== 'string') return;
			const name = `text_${nodeId}_${i + 1}.txt`;
			rec.pendingOutputs++;
			void this.hooks.textAsset(rec, text, name).then((assetId) => {
				rec.pendingOutputs--;
				this.commit(rec, { nodeId, name, type: 'text', assetId });
				if (rec.pendingOutputs === 0 && rec.completedAt !== null) this.announce(rec);
			});
		});
	}

	private commit(rec: JobRecord, entry: OutputEntry): void {
		rec.outputs.push(entry);
		if (rec.rules.proxyStream) rec.heldOutputs.push(entry);
		else rec.channel.broadcast('output', this.hooks.outputBody(rec, entry));
	}

	clear(): void {
		for (const rec of this.records.values()) for (const s of rec.channel.streams) s.drop();
		this.records.clear();
	}
}

/**
 * The proxy in front of ComfyUI 0.3.64, as its `realtime.py` translates a `progress_state` (ComfyUI
 * lists only nodes that are not pending): total = the nodes listed, done = those finished, the
 * first running one is `current_node` with its value and max as step and steps. Right after a node
 * finished that reads `value: 1.0`, `nodes_done` = `nodes_total` = N and no current node (seen on
 * the real pair: 2 → 13 for a 14-node chain); during a sampler, its steps.
 */
export function proxy064Progress(nodes: unknown): V2Progress {
	const listed = Object.values((nodes ?? {}) as Record<string, { state?: string; value?: number; max?: number; node_id?: string }>).filter(
		(n) => n.state !== 'pending'
	);
	const total = listed.length;
	const done = listed.filter((n) => n.state === 'finished').length;
	const running = listed.find((n) => n.state === 'running');
	let value = total ? done / total : 0;
	if (running?.max) value = total ? (done + (running.value ?? 0) / running.max) / total : 0;
	return {
		value: Math.max(0, Math.min(1, value)),
		nodes_done: done,
		nodes_total: total,
		current_node: running?.node_id ?? null,
		step: running ? Math.trunc(running.value ?? 0) : null,
		steps: running?.max !== undefined ? Math.trunc(running.max) : null
	};
}

/** Progress from the runner's node states: node counts plus the running sampler's steps. */
export function snapshot(nodes: unknown, job: Job | undefined): V2Progress {
	const states = Object.values((nodes ?? {}) as Record<string, { state?: string; value?: number; max?: number; node_id?: string }>);
	const total = states.length;
	const done = states.filter((n) => n.state === 'finished').length;
	const running = states.find((n) => n.state === 'running');
	const steps = running && typeof running.max === 'number' && running.max > 1 ? running.max : null;
	const step = steps !== null ? (running!.value ?? 0) : null;
	const fraction = steps !== null ? step! / steps : 0;
	const node = running?.node_id ?? null;
	return {
		value: total === 0 ? 0 : Math.min(1, (done + fraction) / total),
		nodes_done: done,
		nodes_total: total,
		current_node: node,
		current_node_class: node !== null ? (job?.prompt[node]?.class_type ?? null) : null,
		step,
		steps,
		message: null
	};
}
