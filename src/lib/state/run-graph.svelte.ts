/**
 * The graph tab's state: the picture of the run's workflow (with the author's layout when the
 * library still has the file it came from) and each box's state, refreshed at most once per
 * animation frame however fast events arrive; boxes whose state did not change keep their object,
 * so only the changed boxes render again. The states are one map replaced per frame (one signal,
 * not one per box: 500 signals made the first draw slower). The picture is built and laid out once
 * per prompt and file this session. Made by the graph view, which is loaded only when its tab opens.
 */
import type { WorkflowRun } from '$lib/domain/run-record';
import { buildRunGraph, memberIndex, type RunGraph } from '$lib/domain/run-graph';
import { layoutGraph } from '$lib/domain/run-graph-layout';
import { nodeViews, sameView, type NodeView } from '$lib/domain/run-graph-states';
import type { JsonObject } from '$lib/wire/json';
import { workerApi } from '$lib/client/worker-bridge.svelte';

/** Files read this session, by workflow id: switching tabs back and forth reads the library once. */
const filesRead = new Map<string, Promise<JsonObject | null>>();
const FILES_KEPT = 8;

function readFile(workflowId: string): Promise<JsonObject | null> {
	let file = filesRead.get(workflowId);
	if (!file) {
		file = workerApi()
			.getWorkflow({ id: workflowId })
			.then((saved) => saved?.ui ?? null);
		filesRead.set(workflowId, file);
		if (filesRead.size > FILES_KEPT) filesRead.delete(filesRead.keys().next().value!);
	}
	return file;
}

/** Pictures built this session, by prompt, then file: opening the tab again does not lay out again. */
const pictures = new WeakMap<WorkflowRun['prompt'], Map<JsonObject | null, RunGraph>>();

function picture(prompt: WorkflowRun['prompt'], ui: JsonObject | null): RunGraph {
	let byFile = pictures.get(prompt);
	if (!byFile) pictures.set(prompt, (byFile = new Map()));
	let graph = byFile.get(ui);
	if (!graph) {
		graph = layoutGraph(buildRunGraph(prompt, ui));
		byFile.set(ui, graph);
		if (byFile.size > FILES_KEPT) byFile.delete(byFile.keys().next().value!);
	}
	return graph;
}

export class RunGraphState {
	/** The library's UI-format file of the run's workflow: undefined while read, null when there is none. */
	ui = $state.raw<JsonObject | null | undefined>(undefined);
	graph = $state.raw<RunGraph | null>(null);
	index = $derived(this.graph ? memberIndex(this.graph.nodes) : new Map<string, string>());
	/** Each box's state, by box id; a new map when any box changed, unchanged boxes keep their object. */
	views = $state.raw<ReadonlyMap<string, NodeView>>(new Map());
	private frame = 0;
	private latest: WorkflowRun | undefined;
	private builtFor: { prompt: WorkflowRun['prompt']; ui: JsonObject | null } | null = null;

	constructor(private readonly nextFrame: (tick: () => void) => number = requestAnimationFrame) {}

	async loadUi(workflowId: string | null): Promise<void> {
		if (!workflowId) {
			this.ui = null;
			return;
		}
		try {
			this.ui = await readFile(workflowId);
		} catch (error) {
			// The library could not be read: draw the prompt with the automatic layout, and try again next time.
			filesRead.delete(workflowId);
			console.warn('the workflow file for the graph could not be read', error);
			this.ui = null;
		}
	}

	/** Takes the run as it is now; the picture follows at the next frame. */
	update(run: WorkflowRun): void {
		this.latest = run;
		if (this.ui === undefined || this.frame !== 0) return;
		this.frame = this.nextFrame(() => {
			this.frame = 0;
			this.apply();
		});
	}

	/** Builds (once per prompt and file) and refreshes the states, at once. */
	apply(): void {
		const run = this.latest;
		if (!run || this.ui === undefined) return;
		const ui = this.ui;
		if (this.builtFor?.prompt !== run.prompt || this.builtFor.ui !== ui) {
			this.graph = picture(run.prompt, ui);
			this.builtFor = { prompt: run.prompt, ui };
			this.views = new Map();
		}
		const graph = this.graph;
		if (!graph) return;
		const before = this.views;
		const next = nodeViews(run, graph.nodes);
		let changed = next.size !== before.size;
		for (const [id, view] of next) {
			const old = before.get(id);
			if (old && sameView(old, view)) next.set(id, old);
			else changed = true;
		}
		if (changed) this.views = next;
	}

	dispose(): void {
		if (this.frame !== 0) cancelAnimationFrame(this.frame);
		this.frame = 0;
	}
}
