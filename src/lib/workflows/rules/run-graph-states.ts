/**
 * Each box's state in a run, from the run record alone (so a saved run shows the same offline).
 * A v2 job (`jobLinks`) reports only throttled snapshots of the current node and counts: a node is
 * done or waiting only where the count pins it down (see node-count-progress), else `not-reported`, never guessed.
 */
import type { WorkflowRun } from './run-record';
import { nodesFromCount } from './node-count-progress';
import { boxOf, memberIndex } from './run-graph';
import type { GraphNode } from './run-graph-types';

export type NodeState = 'waiting' | 'running' | 'cached' | 'done' | 'failed' | 'interrupted' | 'not-run' | 'not-reported';

export interface NodeView {
	state: NodeState;
	/** Steps of the running node (sampler steps), when the server sent them. */
	progress?: { value: number; max: number };
	/** A failed node: the error's words and the inputs it names. */
	message?: string;
	inputs?: string[];
}

export const STATE_WORDS: Record<NodeState, string> = {
	waiting: 'Waiting',
	running: 'Running',
	cached: 'Cached',
	done: 'Done',
	failed: 'Failed',
	interrupted: 'Interrupted',
	'not-run': 'Not run',
	'not-reported': 'Not reported'
};

const RANK: Record<NodeState, number> = {
	failed: 7,
	interrupted: 6,
	running: 5,
	waiting: 4,
	'not-reported': 3,
	'not-run': 2,
	done: 1,
	cached: 0
};

/** What a v2 job told of its nodes: ids done (named, or pinned down by a count) and, from a count, those surely waiting. */
interface V2Known {
	waiting: Set<string>;
}

function memberState(run: WorkflowRun, id: string, done: Set<string>, cached: Set<string>, v2: V2Known | null): NodeState {
	if (run.error?.nodeId === id && run.status === 'failed') return 'failed';
	if (run.status === 'interrupted' && run.interruptedAt?.nodeId === id) return 'interrupted';
	if (run.progress.current === id && (run.status === 'running' || run.status === 'queued')) return 'running';
	if (run.status === 'succeeded') return cached.has(id) ? 'cached' : 'done';
	if (v2) {
		const live = run.status === 'running' || run.status === 'queued';
		if (live && done.has(id)) return 'done';
		if (live && v2.waiting.has(id)) return 'waiting';
		return 'not-reported';
	}
	if (cached.has(id)) return 'cached';
	if (done.has(id)) return 'done';
	return run.status === 'submitting' || run.status === 'queued' || run.status === 'running' ? 'waiting' : 'not-run';
}

/** The states of every box, keyed by box id. A subgraph box shows the most telling state of its inside. */
export function nodeViews(run: WorkflowRun, nodes: GraphNode[]): Map<string, NodeView> {
	const done = new Set(run.progress.done);
	const cached = new Set(run.progress.cached ?? []);
	const counted = run.progress.counted;
	const v2: V2Known | null =
		run.jobLinks === undefined ? null : { waiting: new Set(counted === undefined ? [] : nodesFromCount(run.prompt, counted).waiting) };
	const views = new Map<string, NodeView>();
	const index = memberIndex(nodes);
	const errorBox = run.error?.nodeId ? boxOf(index, run.error.nodeId) : undefined;
	for (const node of nodes) {
		const members = node.members.length > 0 ? node.members : [node.id];
		let state: NodeState = memberState(run, members[0]!, done, cached, v2);
		for (const m of members.slice(1)) {
			const s = memberState(run, m, done, cached, v2);
			if (RANK[s] > RANK[state]) state = s;
		}
		// A subgraph whose inside is partly done while the run goes on is still at work.
		if (state === 'waiting' && members.some((m) => done.has(m))) state = 'running';
		const view: NodeView = { state };
		const step = run.progress.step;
		if (state === 'running' && step && members.includes(step.node) && step.max > 0) view.progress = { value: step.value, max: step.max };
		if (node.id === errorBox && run.error && (state === 'failed' || run.status === 'failed')) {
			view.state = 'failed';
			view.message = [run.error.exceptionType ?? run.error.title, run.error.traceback?.[0] ?? run.error.message].filter(Boolean).join(': ');
		}
		const problems = members.flatMap((m) => run.nodeProblems?.[m] ?? []);
		if (problems.length > 0) {
			view.state = 'failed';
			view.message ??= problems.map((p) => p.message).join('; ');
			view.inputs = [...new Set(problems.flatMap((p) => (p.inputName ? [p.inputName] : [])))];
		}
		views.set(node.id, view);
	}
	return views;
}

/** Whether two views show the same thing (the view keeps unchanged boxes untouched). */
export function sameView(a: NodeView | undefined, b: NodeView): boolean {
	return (
		a !== undefined &&
		a.state === b.state &&
		a.message === b.message &&
		a.progress?.value === b.progress?.value &&
		a.progress?.max === b.progress?.max &&
		(a.inputs ?? []).join('\u0000') === (b.inputs ?? []).join('\u0000')
	);
}
