/**
 * The workflow service's moving parts in one place: validation on submit, the tier queue, the
 * runner's environment (files, cache, event routing) and cancellation. Routes call into this.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorState } from '../state';
import type { StorageService } from '../storage/server';
import type { FileRef, NodeErrors, SubmitRequest, ValidationError } from '../../src/lib/workflows/protocol/workflow-api';
import { nodeDefinitions, type NodeDefinition } from './nodes';
import { executionOrder, validatePrompt, type CustomValidator } from './validate';
import { JobBook, withoutSecrets, type Job } from './jobs';
import { OutputCache, runJob, type RunEnding, type RunEnvironment } from './runner';
import { ExecutionFailure, type LoadedFile } from './executors';
import { FileIndex, isFileType, type FileType } from './files';
import type { Route, SocketHub } from './socket-hub';
import { workflowScenario } from './scenario-rules';
import { NodeHolds } from './holds';
import { shapeDefinitions, type ServerShape } from './server-shape';

export const DEFAULT_STEP_MS = 25;

/** Sees every job event the engine emits, whatever its socket route (the v2 surface listens here). */
export interface EngineObserver {
	event(type: string, data: Record<string, unknown>): void;
	preview(promptId: string, nodeId: string, jpeg: Buffer): void;
	text(promptId: string, nodeId: string, text: string): void;
}

export type SubmitOutcome =
	{ ok: true; job: Job; nodeErrors: NodeErrors } | { ok: false; status: 400; error: ValidationError; nodeErrors: NodeErrors };

/** `name [output]` picks another folder, as ComfyUI's annotated file names do. */
export function parseAnnotatedName(name: string): { type: FileType; filename: string } {
	const match = /^(.*) \[(input|output|temp)\]$/.exec(name);
	return match ? { type: match[2] as FileType, filename: match[1]! } : { type: 'input', filename: name };
}

export class WorkflowEngine {
	readonly book = new JobBook();
	readonly files = new FileIndex();
	readonly cache = new OutputCache();
	stepMs = DEFAULT_STEP_MS;
	readonly observers = new Set<EngineObserver>();
	private readonly halt = new AbortController();
	readonly holds = new NodeHolds(this.halt.signal);

	constructor(
		private readonly state: EmulatorState,
		private readonly storage: StorageService,
		private readonly hub: SocketHub,
		/** What sets this server apart from the others of a pool (none: the full set, default speed). */
		readonly shape: ServerShape = {}
	) {
		this.stepMs = shape.stepMs ?? DEFAULT_STEP_MS;
		hub.greeting = (clientId) => this.greeting(clientId);
		state.onReset(() => {
			for (const job of this.book.runningJobs()) this.stop(job);
			this.book.clear();
			this.files.clear();
			this.cache.clear();
			this.stepMs = this.shape.stepMs ?? DEFAULT_STEP_MS;
			this.holds.setting = null;
			this.hub.corruptFrames = false;
		});
	}

	get rules() {
		return workflowScenario(this.state.scenario);
	}

	/** The definitions served last and the input lists they were built from: 384 node types are rebuilt only when an input list changes. */
	private served: { key: string; definitions: Record<string, NodeDefinition> } | undefined;

	definitions(): Record<string, NodeDefinition> {
		const withAssets = !this.rules.local && !this.rules.rejectAssetNames;
		const names = (accept: (mime: string, name: string) => boolean) => this.files.inputNames(accept, withAssets);
		const images = this.files.inputImages(withAssets);
		const more = {
			audio: names((mime) => mime.startsWith('audio/')),
			video: names((mime) => mime.startsWith('video/')),
			'3d': names((_mime, name) => /\.(glb|gltf|obj|fbx|stl)$/i.test(name)),
			latent: names((_mime, name) => name.endsWith('.latent'))
		};
		const key = JSON.stringify([images, more]);
		if (this.served?.key !== key) this.served = { key, definitions: shapeDefinitions(nodeDefinitions(images, more), this.shape) };
		return this.served.definitions;
	}

	private imageValidator(): CustomValidator {
		return (_input, value) => {
			if (typeof value !== 'string') return `Invalid image file: ${JSON.stringify(value)}`;
			if (!this.rules.local && /^https?:\/\//.test(value)) return true;
			const { type, filename } = parseAnnotatedName(value);
			if (this.files.getByPath(type, filename)) return true;
			if (!this.rules.local && !this.rules.rejectAssetNames && this.files.assetByName(value)) return true;
			return `Invalid image file: ${value}`;
		};
	}

	submit(body: SubmitRequest): SubmitOutcome {
		const image = this.imageValidator();
		const definitions = this.definitions();
		const result = validatePrompt(body.prompt, definitions, { LoadImage: image, LoadImageMask: image, LoadImageOutput: image });
		if (!result.ok) return { ok: false, status: 400, error: result.error, nodeErrors: result.nodeErrors };
		const extra = body.extra_data ?? {};
		const key = extra.api_key_service_org;
		// Only partner nodes that will run need the key (an output that failed validation does not run).
		const partnerNodes = executionOrder(result.prompt, result.outputs).filter((id) => definitions[result.prompt[id]!.class_type]?.api_node);
		if (!this.rules.local && partnerNodes.length > 0 && key !== this.state.apiKey) {
			const [type, message] =
				key === undefined
					? ['missing_api_key_service_org', 'This workflow contains partner nodes: put your API key in extra_data.api_key_service_org.']
					: ['invalid_api_key_service_org', 'extra_data.api_key_service_org is not a valid API key for this account.'];
			const nodeErrors: NodeErrors = {};
			for (const id of partnerNodes) {
				nodeErrors[id] = {
					errors: [{ type, message, details: 'extra_data.api_key_service_org', extra_info: {} }],
					dependent_outputs: result.outputs,
					class_type: result.prompt[id]!.class_type
				};
			}
			return { ok: false, status: 400, error: { type, message, details: '', extra_info: {} }, nodeErrors };
		}
		const id =
			typeof body.prompt_id === 'string' && body.prompt_id !== '' && !this.book.jobs.has(body.prompt_id) ? body.prompt_id : randomUUID();
		const job: Job = {
			id,
			number: this.book.nextNumber(),
			prompt: result.prompt,
			extraData: withoutSecrets(extra),
			clientId: typeof body.client_id === 'string' && body.client_id !== '' ? body.client_id : undefined,
			outputsToExecute: result.outputs,
			partnerKeyValid: this.rules.local ? this.hasLocalLogin(extra) : key === this.state.apiKey,
			state: 'pending',
			stopRequested: false,
			outputs: {},
			messages: [],
			inHistory: true,
			currentNode: undefined
		};
		this.book.add(job);
		this.broadcastStatus();
		this.pump();
		if (job.state === 'pending' && !this.rules.local) {
			const ahead = this.book.remaining() - 1;
			const value = `Your plan runs ${this.rules.concurrency} job${this.rules.concurrency === 1 ? '' : 's'} at a time: this job waits for ${ahead} ahead of it.`;
			this.hub.sendJson({ to: 'all' }, { type: 'notification', data: { value, id: `queued-${job.id}`, prompt_id: job.id } });
		}
		return { ok: true, job, nodeErrors: result.nodeErrors };
	}

	/** A local runtime's partner nodes use the comfy.org login the frontend puts in extra_data. */
	private hasLocalLogin(extra: Record<string, unknown>): boolean {
		return ['api_key_comfy_org', 'auth_token_comfy_org', 'api_key_service_org'].some(
			(k) => typeof extra[k] === 'string' && extra[k] !== ''
		);
	}

	/** For the emulator's close: drops waiting jobs and stops running ones now, so no step timer outlives it. */
	close(): void {
		for (const job of this.book.pendingJobs()) this.book.dropPending(job.id);
		for (const job of this.book.runningJobs()) this.stop(job);
		this.halt.abort();
	}

	/** Starts what the tier allows; called on submit and whenever a job ends. */
	pump(): void {
		if (this.halt.signal.aborted) return;
		for (const job of this.book.startable(this.rules.concurrency)) {
			void runJob(job, this.environment(job))
				.catch((error: unknown) => {
					// runJob reports node failures itself; reaching here is an emulator bug, kept visible in history.
					job.state = 'failed';
					job.messages.push([
						'execution_error',
						{ prompt_id: job.id, exception_type: 'Exception', exception_message: `emulator bug: ${String(error)}` }
					]);
				})
				.finally(() => {
					this.book.finished(job);
					this.broadcastStatus();
					this.pump();
				});
		}
	}

	/** Cloud: deletes pending jobs and stops running ones. Local: only pending jobs, which vanish. */
	delete(ids: string[]): void {
		for (const id of ids) {
			const pending = this.book.dropPending(id);
			if (pending) {
				if (this.rules.local) {
					pending.inHistory = false;
					this.book.jobs.delete(id);
				} else pending.state = 'cancelled';
				continue;
			}
			if (this.rules.local) continue;
			const running = this.book.runningJobs().find((j) => j.id === id);
			if (running) this.stop(running);
		}
		this.broadcastStatus();
	}

	/**
	 * `POST /api/jobs/{id}/cancel` of a current ComfyUI: interrupts the job if it is the one running,
	 * dequeues it if pending; true when a cancel was dispatched, false for a finished or unknown id.
	 */
	cancelJob(id: string): boolean {
		if (this.book.pendingJobs().some((j) => j.id === id)) {
			this.delete([id]);
			return true;
		}
		return this.interrupt(id) > 0;
	}

	/**
	 * A local ComfyUI restarting: queue, history and cache live in its memory and are gone; files on
	 * disk stay. Running jobs stop silently (their process is gone).
	 */
	forgetOnRestart(): void {
		for (const job of this.book.runningJobs()) this.stop(job);
		this.book.clear();
		this.cache.clear();
	}

	clearPending(): void {
		for (const job of this.book.pendingJobs()) this.delete([job.id]);
	}

	/** With a prompt id: that job if it is running. Without: every running job of the account. */
	interrupt(promptId: string | undefined): number {
		let stopped = 0;
		for (const job of this.book.runningJobs()) {
			if (promptId !== undefined && job.id !== promptId) continue;
			this.stop(job);
			stopped++;
		}
		return stopped;
	}

	/** A running job is told to stop at its next check; a node of it held until released goes on, to reach that check. */
	private stop(job: Job): void {
		job.stopRequested = true;
		this.holds.release({ promptId: job.id });
	}

	/**
	 * What a socket that connects mid-run is told: `executing` with the current node of each running
	 * job it may see. ComfyUI sends this on reconnect to the submitting client, without a prompt_id;
	 * the cloud form carries the prompt_id, as every job frame does there.
	 */
	private greeting(clientId: string): unknown[] {
		const out: unknown[] = [];
		for (const job of this.book.runningJobs()) {
			if (job.currentNode === undefined) continue;
			if (!this.rules.local)
				out.push({ type: 'executing', data: { node: job.currentNode, display_node: job.currentNode, prompt_id: job.id } });
			else if (job.clientId === clientId) out.push({ type: 'executing', data: { node: job.currentNode } });
		}
		return out;
	}

	broadcastStatus(): void {
		this.hub.sendJson({ to: 'all' }, { type: 'status', data: { status: { exec_info: { queue_remaining: this.book.remaining() } } } });
	}

	/** Bytes of an input-file reference: an upload, a from-hash asset's name, or a signed storage URL. */
	async loadInput(name: string): Promise<LoadedFile> {
		if (/^https?:\/\//.test(name)) return this.download(name);
		const { type, filename } = parseAnnotatedName(name);
		const file = this.files.getByPath(type, filename);
		const hash = file?.hash ?? (!this.rules.rejectAssetNames ? this.files.assetByName(name)?.asset_hash : undefined);
		const blob = hash ? this.storage.blobs.get(hash) : undefined;
		if (!blob) throw new ExecutionFailure('ValidationError', `Invalid image file: ${name} is no longer stored.`);
		return { bytes: blob.bytes, hash: blob.hash };
	}

	/** Only signed URLs of our own storage origin "download"; anything else fails as a download would offline. */
	private async download(url: string): Promise<LoadedFile> {
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			parsed = undefined;
		}
		if (parsed && parsed.origin === new URL(this.storage.origin).origin && this.storage.signer.verify(parsed, this.state.now()).ok) {
			const hash = decodeURIComponent(parsed.pathname.split('/')[2] ?? '');
			const blob = this.storage.blobs.get(hash);
			if (blob) return { bytes: blob.bytes, hash };
		}
		throw new ExecutionFailure(
			'ImageDownloadError',
			`Failed to download the input image from ${parsed ? parsed.origin + parsed.pathname : 'the given URL'}.`
		);
	}

	inputHash(name: string): string {
		const { type, filename } = parseAnnotatedName(name);
		return this.files.getByPath(type, filename)?.hash ?? this.files.assetByName(name)?.asset_hash ?? name;
	}

	async saveFile(type: 'output' | 'temp', prefix: string, extension: string, bytes: Buffer, mime: string): Promise<FileRef> {
		const blob = await this.storage.blobs.put(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mime);
		const { filename, subfolder } = this.files.nextOutputName(prefix, extension);
		this.files.put({ type, filename, subfolder, hash: blob.hash, mime, size: bytes.length });
		return { filename, subfolder, type };
	}

	/** Where a job's events go: every socket in the cloud; the submitting client in the local runtime. */
	route(job: Job, kind: 'event' | 'progress' | 'interrupted' | 'text'): Route {
		if (!this.rules.local || kind === 'text') return { to: 'all' };
		if (job.clientId) return { to: 'client', clientId: job.clientId };
		// ComfyUI without a client_id: progress, previews and interrupts still go out to everyone.
		return kind === 'event' ? { to: 'nobody' } : { to: 'all' };
	}

	private environment(job: Job): RunEnvironment {
		const rules = this.rules;
		const ending: RunEnding = rules.ending;
		// A job forgotten by a restart says nothing more: its server process is gone.
		const alive = () => this.book.jobs.get(job.id) === job;
		return {
			halt: this.halt.signal,
			local: rules.local,
			// The scaled clock: the node's step time in wall time.
			stepMs: this.stepMs / Math.max(1e-3, this.shape.timeScale ?? 1),
			ending,
			creditsExhausted: () => this.rules.noCredits,
			subscriptionInactive: () => this.rules.inactiveSubscription,
			modelsUnavailable: () => this.rules.modelsUnavailable,
			emit: (route, type, data) => {
				if (!alive()) return;
				this.hub.sendJson(route, { type, data });
				for (const o of this.observers) o.event(type, data);
			},
			preview: (route, promptId, nodeId, jpeg, stepEndedAt) => {
				if (!alive()) return;
				for (const o of this.observers) o.preview(promptId, nodeId, jpeg);
				this.hub.sendPreview(
					route,
					'image/jpeg',
					jpeg,
					{ node_id: nodeId, display_node_id: nodeId, real_node_id: nodeId, prompt_id: promptId, parent_node_id: null },
					stepEndedAt
				);
			},
			text: (route, nodeId, text, promptId) => {
				if (!alive()) return;
				for (const o of this.observers) o.text(promptId, nodeId, text);
				this.hub.sendText(route, nodeId, text);
			},
			route: (job, kind) => this.route(job, kind),
			loadInput: (name) => this.loadInput(name),
			inputHash: (name) => this.inputHash(name),
			saveFile: (type, prefix, extension, bytes, mime) => this.saveFile(type, prefix, extension, bytes, mime),
			cache: this.cache,
			hold: (nodeId, classType, step) => this.holds.pass(job.id, nodeId, classType, step),
			forgotten: () => !alive()
		};
	}
}
