import { afterEach, describe, expect, it, vi } from 'vitest';
import { newWorkflowRun, type WorkflowRun } from '$lib/workflows/rules/run-record';
import textToImage from '$lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '$lib/workflows/protocol/workflow-api';
import { RunGraphState } from './run-graph.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('$lib/core/state/testing/fake-bridge'));

/**
 * The browser's frame functions as Node lacks them, with the browser's catch: they belong to the
 * window, and called as a method of another object they throw "Illegal invocation".
 */
function browserFrames(): { runFrame(): void; pending(): number } {
	const ticks = new Map<number, () => void>();
	let last = 0;
	const ownedByWindow = (self: unknown): void => {
		if (self !== undefined && self !== globalThis) throw new TypeError('Illegal invocation');
	};
	vi.stubGlobal('requestAnimationFrame', function (this: unknown, tick: () => void): number {
		ownedByWindow(this);
		ticks.set(++last, tick);
		return last;
	});
	vi.stubGlobal('cancelAnimationFrame', function (this: unknown, frame: number): void {
		ownedByWindow(this);
		ticks.delete(frame);
	});
	return {
		runFrame() {
			const due = [...ticks.values()];
			ticks.clear();
			for (const tick of due) tick();
		},
		pending: () => ticks.size
	};
}

function run(progress: Partial<WorkflowRun['progress']>, status: WorkflowRun['status'] = 'running'): WorkflowRun {
	const run = newWorkflowRun({
		id: 'r1',
		profileId: 'p',
		title: 'Text to image',
		workflowId: null,
		prompt: textToImage as ApiPrompt,
		seeds: {},
		partner: false,
		now: 1
	});
	return { ...run, status, progress: { ...run.progress, ...progress } };
}

const stateOf = (graph: RunGraphState, id: string) => graph.views.get(id)?.state;

describe('the graph state of a run that goes on', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it("follows the run at the browser's next animation frame, with the default frame clock", async () => {
		const frames = browserFrames();
		const graph = new RunGraphState();
		await graph.loadUi(null);

		graph.update(run({ current: '3', done: ['4', '5', '6', '7'] }));
		expect(frames.pending()).toBe(1);
		frames.runFrame();
		expect(stateOf(graph, '3')).toBe('running');
		expect(stateOf(graph, '8')).toBe('waiting');

		// Many updates within a frame ask for one frame, and the latest run is drawn.
		graph.update(run({ current: '8', done: ['4', '5', '6', '7', '3'] }));
		graph.update(run({ current: '9', done: ['4', '5', '6', '7', '3', '8'] }));
		expect(frames.pending()).toBe(1);
		frames.runFrame();
		expect(stateOf(graph, '3')).toBe('done');
		expect(stateOf(graph, '8')).toBe('done');
		expect(stateOf(graph, '9')).toBe('running');

		graph.update(run({ current: null, done: ['4', '5', '6', '7', '3', '8', '9'] }, 'succeeded'));
		frames.runFrame();
		expect([...graph.views.values()].map((v) => v.state)).toEqual(Array(7).fill('done'));
	});

	it('keeps the object of a box whose state did not change, so only changed boxes render again', async () => {
		const frames = browserFrames();
		const graph = new RunGraphState();
		await graph.loadUi(null);
		graph.update(run({ current: '3', done: ['4', '5', '6', '7'] }));
		frames.runFrame();
		const before = graph.views;
		graph.update(run({ current: '8', done: ['4', '5', '6', '7', '3'] }));
		frames.runFrame();
		expect(graph.views).not.toBe(before);
		expect(graph.views.get('4')).toBe(before.get('4'));
		expect(graph.views.get('3')).not.toBe(before.get('3'));
	});

	it('drops the frame it asked for when disposed', async () => {
		const frames = browserFrames();
		const graph = new RunGraphState();
		await graph.loadUi(null);
		graph.update(run({ current: '3' }));
		graph.dispose();
		expect(frames.pending()).toBe(0);
	});
});
