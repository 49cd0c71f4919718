/**
 * The graph tab's state: the picture of the run's workflow (with the author's layout when the
 * library still has the file it came from) and each box's state, refreshed at most once per
 * animation frame however fast events arrive; boxes whose state did not change keep their object,
 * so only the changed boxes render again. The states are one map replaced per frame (one signal,
 * not one per box: 500 signals made the first draw slower). The picture is built and laid out once
 * per prompt, file and level this session. The level is the box whose inside is shown (`''`: the whole
 * workflow; a subgraph or group node box's path id: its inside). Made by the graph view, which is loaded
 * only when its tab opens.
 */
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import { buildRunGraph, levelPath, memberIndex, typeLinks } from '$lib/workflows/rules/run-graph';
import type { RunGraph } from '$lib/workflows/rules/run-graph-types';
import { layoutGraph } from '$lib/workflows/rules/run-graph-layout';
import { nodeViews, sameView, type NodeView } from '$lib/workflows/rules/run-graph-states';
import type { JsonObject } from '$lib/core/protocol/json';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';

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

/** Output types by node class, from each profile's node definitions (the worker's cached copy), read once this session. */
const typesRead = new Map<string, Promise<Map<string, readonly string[]> | null>>();

/** The types already read, so a graph opened again is drawn typed at once, not drawn twice. */
const typesKnown = new Map<string, Map<string, readonly string[]> | null>();

function readOutputTypes(profileId: string): Promise<Map<string, readonly string[]> | null> {
	let types = typesRead.get(profileId);
	if (!types) {
		types = workerApi()
			.objectInfo({ profileId })
			.then((info) => (info.ok && !info.value.none ? new Map(Object.values(info.value.nodes).map((d) => [d.name, d.outputs])) : null))
			.then((read) => {
				typesKnown.set(profileId, read);
				if (typesKnown.size > FILES_KEPT) typesKnown.delete(typesKnown.keys().next().value!);
				return read;
			});
		typesRead.set(profileId, types);
		if (typesRead.size > FILES_KEPT) typesRead.delete(typesRead.keys().next().value!);
	}
	return types;
}

/** Pictures built this session, by prompt, then file, then level: opening the tab (or a level) again does not lay out again. */
const pictures = new WeakMap<WorkflowRun['prompt'], Map<JsonObject | null, Map<string, RunGraph>>>();

function picture(prompt: WorkflowRun['prompt'], ui: JsonObject | null, level: string): RunGraph {
	let byFile = pictures.get(prompt);
	if (!byFile) pictures.set(prompt, (byFile = new Map()));
	let byLevel = byFile.get(ui);
	if (!byLevel) {
		byFile.set(ui, (byLevel = new Map()));
		if (byFile.size > FILES_KEPT) byFile.delete(byFile.keys().next().value!);
	}
	let graph = byLevel.get(level);
	if (!graph) byLevel.set(level, (graph = layoutGraph(buildRunGraph(prompt, ui, level))));
	return graph;
}

const typedPictures = new WeakMap<RunGraph, WeakMap<Map<string, readonly string[]>, RunGraph>>();

function typed(graph: RunGraph, prompt: WorkflowRun['prompt'], types: Map<string, readonly string[]>): RunGraph {
	let byTypes = typedPictures.get(graph);
	if (!byTypes) typedPictures.set(graph, (byTypes = new WeakMap()));
	let result = byTypes.get(types);
	if (!result) byTypes.set(types, (result = typeLinks(graph, prompt, (classType) => types.get(classType))));
	return result;
}

/** When the picture is refreshed: once per animation frame in the browser. */
export interface FrameClock {
	request(tick: () => void): number;
	cancel(frame: number): void;
}

// Called as plain functions: the browser's `requestAnimationFrame` called as a method of another object
// (as `this.clock.request` would) throws "Illegal invocation".
const animationFrames: FrameClock = {
	request: (tick) => requestAnimationFrame(tick),
	cancel: (frame) => cancelAnimationFrame(frame)
};

export class RunGraphState {
	/** The library's UI-format file of the run's workflow: undefined while read, null when there is none. */
	ui = $state.raw<JsonObject | null | undefined>(undefined);
	graph = $state.raw<RunGraph | null>(null);
	index = $derived(this.graph ? memberIndex(this.graph.nodes) : new Map<string, string>());
	/** The box whose inside is shown: `''` for the whole workflow. */
	level = $state('');
	/** The boxes opened on the way to the level, outermost first, with their titles (the breadcrumb). */
	trail = $state.raw<Array<{ id: string; title: string }>>([]);
	/** Each box's state, by box id; a new map when any box changed, unchanged boxes keep their object. */
	views = $state.raw<ReadonlyMap<string, NodeView>>(new Map());
	private frame = 0;
	private latest: WorkflowRun | undefined;
	/** Output types by node class, to colour an API-format workflow's links; null until read, or when there are none. */
	private outputTypes = $state.raw<Map<string, readonly string[]> | null>(null);
	private builtFor: {
		prompt: WorkflowRun['prompt'];
		ui: JsonObject | null;
		level: string;
		types: Map<string, readonly string[]> | null;
	} | null = null;

	constructor(private readonly clock: FrameClock = animationFrames) {}

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

	/** Reads the profile's node definitions (cached by the worker) for the links' colours; the picture is drawn without them meanwhile. */
	async loadTypes(profileId: string): Promise<void> {
		const known = typesKnown.get(profileId);
		if (known !== undefined) {
			this.outputTypes = known;
			return;
		}
		try {
			this.outputTypes = await readOutputTypes(profileId);
		} catch (error) {
			// Colours only: the links stay grey, and the next graph tries again.
			typesRead.delete(profileId);
			console.warn('the node definitions for the link colours could not be read', error);
		}
	}

	/** Takes the run as it is now; the picture follows at the next frame. */
	update(run: WorkflowRun): void {
		this.latest = run;
		if (this.ui === undefined || this.frame !== 0) return;
		this.frame = this.clock.request(() => {
			this.frame = 0;
			this.apply();
		});
	}

	/** Builds (once per prompt and file) and refreshes the states, at once. */
	apply(): void {
		const run = this.latest;
		if (!run || this.ui === undefined) return;
		const ui = this.ui;
		const types = this.outputTypes;
		const level = this.level;
		if (this.builtFor?.prompt !== run.prompt || this.builtFor.ui !== ui || this.builtFor.level !== level) {
			this.graph = picture(run.prompt, ui, level);
			this.builtFor = { prompt: run.prompt, ui, level, types: null };
			this.views = new Map();
			this.trail = levelPath(level).map((id) => {
				const parent = id.includes(':') ? id.slice(0, id.lastIndexOf(':')) : '';
				return { id, title: picture(run.prompt, ui, parent).nodes.find((n) => n.id === id)?.title ?? id };
			});
		}
		if (types && this.graph && this.builtFor.types !== types) {
			this.graph = typed(this.graph, run.prompt, types);
			this.builtFor.types = types;
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

	/** Shows the inside of a subgraph or group node box (its path id), or the whole workflow (`''`), at once. */
	show(level: string): void {
		this.level = level;
		this.apply();
	}

	dispose(): void {
		if (this.frame !== 0) this.clock.cancel(this.frame);
		this.frame = 0;
	}
}
