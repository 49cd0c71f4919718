/**
 * From axes to cells: axes paired with the one before move together (one group, one dimension of
 * the grid), groups multiply. The first group is the grid's columns, the second its rows, the third
 * its pages. Each cell's workflow is the frozen base with the cell's values written in.
 */
import { MAX_AXES, MAX_CELLS, type AxisValue, type SweepAxis, type SweepCell } from '../protocol/sweep';
import type { ApiPrompt } from '../../core/protocol/workflow-run';

/** The axes moving together: indexes into `axes`, and how many steps they take. */
export interface AxisGroup {
	axes: number[];
	length: number;
}

export type Plan = { ok: true; groups: AxisGroup[]; count: number } | { ok: false; message: string };

export function axisGroups(axes: readonly SweepAxis[]): Plan {
	if (axes.length === 0) return { ok: false, message: 'Pick an input to vary.' };
	if (axes.length > MAX_AXES) return { ok: false, message: `A sweep varies at most ${MAX_AXES} inputs.` };
	const groups: AxisGroup[] = [];
	for (const [i, axis] of axes.entries()) {
		if (axis.values.length === 0) return { ok: false, message: `${axis.label} has no values.` };
		const last = groups.at(-1);
		if (axis.pairedWithPrevious && last) {
			if (axis.values.length !== last.length)
				return {
					ok: false,
					message: `${axis.label} moves with ${axes[last.axes[0]!]!.label}: give both the same number of values (${axis.values.length} and ${last.length}).`
				};
			last.axes.push(i);
		} else groups.push({ axes: [i], length: axis.values.length });
	}
	const count = groups.reduce((n, g) => n * g.length, 1);
	if (count > MAX_CELLS) return { ok: false, message: `That makes ${count} runs: a sweep takes at most ${MAX_CELLS}.` };
	return { ok: true, groups, count };
}

/** Every cell, the first group varying fastest (a row of the grid after another), not sent yet. */
export function planCells(axes: readonly SweepAxis[]): SweepCell[] {
	const plan = axisGroups(axes);
	if (!plan.ok) return [];
	const cells: SweepCell[] = [];
	for (let index = 0; index < plan.count; index++) {
		let rest = index;
		const place = plan.groups.map((g) => {
			const at = rest % g.length;
			rest = Math.floor(rest / g.length);
			return at;
		});
		const values: AxisValue[] = [];
		plan.groups.forEach((g, gi) => g.axes.forEach((a) => (values[a] = axes[a]!.values[place[gi]!]!)));
		cells.push({ index, place, values, status: 'pending', runId: null, promptId: null, attempts: 0 });
	}
	return cells;
}

/** The cell's workflow: a copy of the base with each axis's value at its input. */
export function cellPrompt(base: ApiPrompt, axes: readonly SweepAxis[], values: readonly AxisValue[]): ApiPrompt {
	const prompt = structuredClone(base);
	axes.forEach((axis, i) => {
		const [nodeId, input] = axis.path.map(String);
		if (nodeId === undefined || input === undefined) return;
		const node = Object.hasOwn(prompt, nodeId) ? prompt[nodeId] : undefined;
		if (node) node.inputs = { ...node.inputs, [input]: values[i] };
	});
	return prompt;
}

/** The seeds a cell's run shows: the frozen ones, with a seed axis's value in its place. */
export function cellSeeds(
	frozen: Record<string, number>,
	axes: readonly SweepAxis[],
	values: readonly AxisValue[]
): Record<string, number> {
	const seeds = { ...frozen };
	axes.forEach((axis, i) => {
		const v = values[i];
		if (axis.seed && typeof v === 'number') seeds[axis.fieldId] = v;
	});
	return seeds;
}

/** A value as the grid labels it. */
export function valueWords(value: AxisValue): string {
	if (typeof value === 'string') return value.length > 40 ? `${value.slice(0, 39)}…` : value;
	return String(value);
}
