/**
 * Which nodes a bare count of finished nodes pins down. The self-hosted proxy in front of ComfyUI
 * 0.3.64 reports progress as `nodes_done` only (no node ids: its throttle drops the frames that name
 * the running node). ComfyUI runs nodes one at a time in some order that respects the links, so
 * after k nodes finished, a node X is surely among them when even its latest possible place comes
 * first (n minus its descendants ≤ k), and surely not started when more than k nodes must come before
 * it (its ancestors). Everything in between is left unknown: never guessed.
 *
 * n counts every node of the prompt. ComfyUI skips nodes no output needs; counting them anyway only
 * moves a node's latest place later, so "surely done" stays sure (cached nodes count as finished there).
 */
import type { ApiPrompt } from '../protocol/workflow-api';

export interface CountedNodes {
	/** Surely finished (or cached). */
	done: string[];
	/** Surely not started yet. */
	waiting: string[];
	/** The one node that must be running now, when exactly one is left between the two. */
	running: string | null;
}

/** The node ids each node reads from (links are `[nodeId, slot]`), limited to nodes of the prompt. */
function parentsOf(prompt: ApiPrompt): Map<string, Set<string>> {
	const parents = new Map<string, Set<string>>();
	for (const [id, node] of Object.entries(prompt)) {
		const from = new Set<string>();
		for (const value of Object.values(node?.inputs ?? {})) {
			if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Object.hasOwn(prompt, value[0]) && value[0] !== id)
				from.add(value[0]);
		}
		parents.set(id, from);
	}
	return parents;
}

function reach(start: string, next: Map<string, Set<string>>): number {
	const seen = new Set<string>();
	const stack = [...(next.get(start) ?? [])];
	while (stack.length > 0) {
		const id = stack.pop()!;
		if (id === start || seen.has(id)) continue;
		seen.add(id);
		stack.push(...(next.get(id) ?? []));
	}
	return seen.size;
}

export function nodesFromCount(prompt: ApiPrompt, finished: number): CountedNodes {
	const parents = parentsOf(prompt);
	const children = new Map<string, Set<string>>();
	for (const id of parents.keys()) children.set(id, new Set());
	for (const [id, from] of parents) for (const p of from) children.get(p)!.add(id);
	const n = parents.size;
	const done: string[] = [];
	const waiting: string[] = [];
	const unknown: string[] = [];
	for (const id of parents.keys()) {
		if (n - reach(id, children) <= finished) done.push(id);
		else if (reach(id, parents) > finished) waiting.push(id);
		else unknown.push(id);
	}
	return { done, waiting, running: finished < n && unknown.length === 1 ? unknown[0]! : null };
}
