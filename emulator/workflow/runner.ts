/**
 * Runs one job: nodes in dependency order, cached outputs reused (and announced with
 * `execution_cached`), events in ComfyUI's order, and interrupts honoured at node boundaries (before
 * the next node starts) and between sampler steps (ComfyUI's progress hook checks there too). A stop
 * that arrives during the last node is never read: that job completes.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeUiOutput } from '../../src/lib/workflows/protocol/workflow-api';
import { ExecutionFailure, Interrupted, type LoadedFile, type NodeContext } from './executors';
import { executorFor } from './executor-for';
import { executionOrder, isLink } from './validate';
import type { Job } from './jobs';
import type { Route } from './socket-hub';
import type { RunEnding } from './scenario-rules';
import type { FileRef } from '../../src/lib/workflows/protocol/workflow-api';

export type { RunEnding };

export interface RunEnvironment {
	local: boolean;
	stepMs: number;
	ending: RunEnding;
	creditsExhausted(): boolean;
	subscriptionInactive(): boolean;
	modelsUnavailable(): boolean;
	emit(route: Route, type: string, data: Record<string, unknown>): void;
	preview(route: Route, promptId: string, nodeId: string, jpeg: Buffer, stepEndedAt: number): void;
	text(route: Route, nodeId: string, text: string, promptId: string): void;
	route(job: Job, kind: 'event' | 'progress' | 'interrupted' | 'text'): Route;
	loadInput(name: string): Promise<LoadedFile>;
	/** A content hash for a file-name input, so the cache notices new bytes under an old name. */
	inputHash(name: string): string;
	saveFile(type: 'output' | 'temp', prefix: string, extension: string, bytes: Buffer, mime: string): Promise<FileRef>;
	cache: OutputCache;
	/** Aborted when the emulator closes: a node waiting out its step time stops at once. */
	halt: AbortSignal;
	/** Resolves when this node, just started or past progress `step`, may go on (the timing control's `holdNode`); at once for no hold. */
	hold(nodeId: string, classType: string, step?: number): Promise<void>;
	/** True once the job is forgotten (a reset, a local restart): it says nothing more and must cache nothing. */
	forgotten(): boolean;
}

export interface CachedNode {
	outputs: unknown[];
	ui: NodeUiOutput | undefined;
}

/** Node outputs by input signature, newest kept; ComfyUI's default cache also reuses across prompts. */
export class OutputCache {
	private readonly entries = new Map<string, CachedNode>();
	constructor(private readonly capacity = 128) {}

	get(key: string): CachedNode | undefined {
		const hit = this.entries.get(key);
		if (hit) {
			this.entries.delete(key);
			this.entries.set(key, hit);
		}
		return hit;
	}

	set(key: string, value: CachedNode): void {
		this.entries.set(key, value);
		while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
	}

	clear(): void {
		this.entries.clear();
	}
}

/**
 * Each node's cache key: its type and inputs, a link standing for the key of the node it comes
 * from. Keys are digests, so a long chain stays short: nesting the upstream key's text doubled its
 * escaping at every link, and a 200-node chain ran out of string length before the run started.
 */
function signatures(job: Job, order: string[], env: RunEnvironment): Map<string, string> {
	const out = new Map<string, string>();
	for (const id of order) {
		const node = job.prompt[id]!;
		const inputs = Object.create(null) as Record<string, unknown>;
		for (const [name, value] of Object.entries(node.inputs)) {
			if (isLink(value)) inputs[name] = ['link', out.get(value[0]), value[1]];
			else if (name === 'image' && (node.class_type === 'LoadImage' || node.class_type === 'LoadImageMask'))
				inputs[name] = [value, env.inputHash(String(value))];
			else inputs[name] = value;
		}
		out.set(
			id,
			createHash('sha256')
				.update(JSON.stringify([node.class_type, inputs]))
				.digest('base64url')
		);
	}
	return out;
}

const now = () => Date.now();

export async function runJob(job: Job, env: RunEnvironment): Promise<void> {
	const order = executionOrder(job.prompt, job.outputsToExecute);
	const keys = signatures(job, order, env);
	const event = env.route(job, 'event');
	const executed: string[] = [];
	const nodeStates: Record<string, Record<string, unknown>> = {};
	let current: string | undefined;

	const record = (type: string, data: Record<string, unknown>) => job.messages.push([type, data]);
	const progressState = () => env.emit(env.route(job, 'progress'), 'progress_state', { prompt_id: job.id, nodes: nodeStates });
	const setNode = (id: string, state: string, value = 0, max = 1) => {
		nodeStates[id] = { value, max, state, node_id: id, prompt_id: job.id, display_node_id: id, parent_node_id: null, real_node_id: id };
	};
	const checkpoint = () => {
		if (job.stopRequested) throw new Interrupted();
	};

	const start = { prompt_id: job.id, timestamp: now() };
	env.emit(event, 'execution_start', start);
	record('execution_start', start);

	const end = (type: string, data: Record<string, unknown>) => {
		const empty = env.ending === 'terminal-then-empty' || env.ending === 'empty-then-terminal';
		const executingFirst = env.ending === 'null-then-terminal' || env.ending === 'empty-then-terminal';
		const finalExecuting = { node: empty ? '' : null, prompt_id: job.id };
		if (executingFirst) env.emit(event, 'executing', finalExecuting);
		env.emit(type === 'execution_interrupted' ? env.route(job, 'interrupted') : event, type, data);
		if (!executingFirst) env.emit(event, 'executing', finalExecuting);
		record(type, data);
	};

	try {
		if (env.subscriptionInactive()) {
			throw new ExecutionFailure('InactiveSubscriptionError', 'Your subscription is not active: renew it to run workflows.');
		}
		const cachedIds = order.filter((id) => env.cache.get(keys.get(id)!) !== undefined);
		const cachedMessage = { nodes: cachedIds, prompt_id: job.id, timestamp: now() };
		env.emit(event, 'execution_cached', cachedMessage);
		record('execution_cached', cachedMessage);
		for (const id of order) setNode(id, cachedIds.includes(id) ? 'finished' : 'pending');

		const values = new Map<string, unknown[]>();
		const wait = async (ms: number) => {
			await sleep(ms, undefined, { signal: env.halt }).catch((error: unknown) => {
				if (env.halt.aborted) throw new Interrupted();
				throw error;
			});
		};
		for (const id of order) {
			current = id;
			const node = job.prompt[id]!;
			const key = keys.get(id)!;
			const hit = env.cache.get(key);
			// A cached node returns before ComfyUI's stop check, as it does here.
			if (hit) {
				values.set(id, hit.outputs);
				if (hit.ui) publishUi(id, hit.ui);
				continue;
			}
			job.currentNode = id;
			env.emit(event, 'executing', { node: id, display_node: id, prompt_id: job.id });
			setNode(id, 'running');
			progressState();
			// ComfyUI reads a stop as the node's function starts (nodes.before_node_execution), after its
			// `executing`: a stop sent during the node before is reported on this one.
			checkpoint();
			// A held node is busy, not checking: a stop sent now is read when the next node starts.
			await env.hold(id, node.class_type);
			if (env.halt.aborted || env.forgotten()) throw new Interrupted();
			const inputs = Object.create(null) as Record<string, unknown>;
			for (const [name, value] of Object.entries(node.inputs)) inputs[name] = isLink(value) ? values.get(value[0])?.[value[1]] : value;
			const ctx: NodeContext = {
				nodeId: id,
				creditsExhausted: env.creditsExhausted(),
				modelsUnavailable: env.modelsUnavailable(),
				partnerKeyValid: job.partnerKeyValid,
				prompt: job.prompt,
				extraPngInfo: job.extraData['extra_pnginfo'],
				stepMs: env.stepMs,
				sleep: wait,
				checkpoint,
				progress: async (value, max, preview) => {
					const stepEndedAt = performance.now();
					checkpoint();
					// The preview encodes on sharp's threads while the JSON messages go out.
					const image = preview?.();
					const route = env.route(job, 'progress');
					env.emit(route, 'progress', { value, max, prompt_id: job.id, node: id });
					setNode(id, 'running', value, max);
					progressState();
					if (image) env.preview(route, job.id, id, await image, stepEndedAt);
					// Held after this step, a stop is read at the next step's check, as ComfyUI's progress hook does.
					await env.hold(id, node.class_type, value);
					if (env.halt.aborted || env.forgotten()) throw new Interrupted();
				},
				text: (message) => env.text(env.route(job, 'text'), id, message, job.id),
				loadInput: env.loadInput,
				saveFile: env.saveFile
			};
			const executor = executorFor(node.class_type);
			if (!executor) throw new ExecutionFailure('ValidationError', `Node ${node.class_type} cannot run here.`);
			const result = await executor(inputs, ctx);
			const ui =
				result.ui && env.local && result.ui.video ? { images: result.ui.video, animated: result.ui.animated ?? [true] } : result.ui;
			values.set(id, result.outputs);
			env.cache.set(key, { outputs: result.outputs, ui });
			executed.push(id);
			setNode(id, 'finished', 1, 1);
			progressState();
			if (ui) publishUi(id, ui);
		}
		job.state = 'completed';
		end('execution_success', { prompt_id: job.id, timestamp: now() });
	} catch (error) {
		const nodeId = current ?? null;
		const nodeType = current ? job.prompt[current]!.class_type : null;
		if (error instanceof Interrupted) {
			job.state = env.local ? 'failed' : 'cancelled';
			end('execution_interrupted', { prompt_id: job.id, node_id: nodeId, node_type: nodeType, executed, timestamp: now() });
			return;
		}
		const failure =
			error instanceof ExecutionFailure ? error : new ExecutionFailure('Exception', error instanceof Error ? error.message : String(error));
		if (current) setNode(current, 'error');
		job.state = 'failed';
		end('execution_error', {
			prompt_id: job.id,
			node_id: nodeId,
			node_type: nodeType,
			executed,
			exception_message: failure.message,
			exception_type: failure.exceptionType,
			traceback: [`  File "execution.py", line 1, in ${nodeType ?? 'execute'}\n`, `${failure.exceptionType}: ${failure.message}\n`],
			current_inputs: {},
			current_outputs: {},
			timestamp: now()
		});
	}

	function publishUi(id: string, ui: NodeUiOutput): void {
		job.outputs[id] = ui;
		env.emit(event, 'executed', { node: id, display_node: id, output: ui, prompt_id: job.id });
	}
}
