import { describe, expect, it } from 'vitest';
import { EXPIRED_EXCEPTION, finishedBeforeCancel, isExpired, newWorkflowRun, runFraction, type WorkflowRun } from './run-record';
import { applyCanceling, applyHistory, applyJobState, applyServerEvent } from './run-reducer';
import type { ServerEvent } from '../protocol/workflow-events';
import textToImage from './examples/text-to-image.json';
import type { ApiPrompt, HistoryEntry } from '../protocol/workflow-api';

const fresh = (): WorkflowRun => ({
	...newWorkflowRun({
		id: 'r1',
		profileId: 'p',
		title: 'T2I',
		workflowId: null,
		prompt: textToImage as ApiPrompt,
		seeds: {},
		partner: false,
		now: 0
	}),
	promptId: 'p1',
	status: 'queued'
});

const ev = {
	start: { type: 'execution_start', promptId: 'p1' },
	cached: { type: 'execution_cached', promptId: 'p1', nodes: ['4', '6', '7'] },
	exec: (node: string | null): ServerEvent => ({ type: 'executing', promptId: 'p1', node }),
	step: (value: number): ServerEvent => ({ type: 'progress', promptId: 'p1', node: '3', value, max: 20 }),
	executed: {
		type: 'executed',
		promptId: 'p1',
		node: '9',
		output: { images: [{ filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' }], video: [], audio: [], other: {} }
	},
	success: { type: 'execution_success', promptId: 'p1' },
	error: {
		type: 'execution_error',
		promptId: 'p1',
		nodeId: '3',
		nodeType: 'KSampler',
		exceptionType: 'OOMError',
		exceptionMessage: 'CUDA out of memory',
		traceback: ['line 1']
	}
} satisfies Record<string, ServerEvent | ((x: never) => ServerEvent)>;

function play(run: WorkflowRun, events: ServerEvent[]): WorkflowRun {
	return events.reduce((r, e, i) => applyServerEvent(r, e, i + 1), run);
}

describe('a workflow run, event by event', () => {
	it('runs through cached nodes, steps and outputs to success', () => {
		const run = play(fresh(), [
			ev.start,
			ev.cached,
			ev.exec('5'),
			ev.exec('3'),
			ev.step(5),
			ev.step(10),
			ev.exec('8'),
			ev.exec('9'),
			ev.executed,
			ev.success,
			ev.exec(null)
		]);
		expect(run.status).toBe('succeeded');
		expect(run.progress.done).toEqual(expect.arrayContaining(['4', '6', '7', '5', '3', '8', '9']));
		expect(run.outputs).toEqual([{ nodeId: '9', kind: 'image', ref: { filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' } }]);
		expect(run.startedAt).toBe(1);
		expect(run.finishedAt).toBe(10);
		expect(runFraction(run)).toBe(1);
	});

	it('keeps which nodes were cached apart from the ones that ran', () => {
		const run = play(fresh(), [ev.start, ev.cached, ev.exec('5'), ev.exec('3'), ev.cached]);
		expect(run.progress.cached).toEqual(['4', '6', '7']);
		expect(run.progress.done).toEqual(['4', '6', '7', '5']);
	});

	it('learns the cached nodes from a history entry too', () => {
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, ['9']],
			outputs: {},
			status: { status_str: 'success', completed: true, messages: [['execution_cached', { nodes: ['4', 7, '6'] }]] },
			meta: {}
		};
		expect(applyHistory(fresh(), entry, 5).progress.cached).toEqual(['4', '6']);
	});

	it('counts cached nodes as done in the whole-run fraction', () => {
		const run = play(fresh(), [ev.start, ev.cached]);
		expect(runFraction(run)).toBeCloseTo(3 / 7);
	});

	it('ends with executing null before the terminal event: finishing, then confirmed', () => {
		const run = play(fresh(), [ev.start, ev.exec('9'), ev.executed, ev.exec(null)]);
		expect(run.status).toBe('running');
		expect(run.progress.finishing).toBe(true);
		expect(applyServerEvent(run, ev.success, 20).status).toBe('succeeded');
		expect(applyJobState(run, 'completed', 20).status).toBe('succeeded');
	});

	it('never lets step progress go backwards within a node', () => {
		const run = play(fresh(), [ev.start, ev.exec('3'), ev.step(12), ev.step(7)]);
		expect(run.progress.step).toEqual({ node: '3', value: 12, max: 20 });
	});

	it('keeps a failure with its exception type explained, node and traceback', () => {
		const run = play(fresh(), [ev.start, ev.exec('3'), ev.error, ev.exec(null)]);
		expect(run.status).toBe('failed');
		expect(run.error).toMatchObject({
			exceptionType: 'OOMError',
			nodeId: '3',
			message: /ran out of memory/,
			traceback: ['CUDA out of memory', 'line 1']
		});
	});

	it('does not reopen a finished run on late events or polls', () => {
		const done = play(fresh(), [ev.start, ev.success]);
		expect(applyServerEvent(done, ev.start, 30)).toBe(done);
		expect(applyJobState(done, 'in_progress', 30)).toBe(done);
		expect(applyJobState(play(fresh(), [ev.start]), 'pending', 30).status).toBe('running');
	});

	it.each([
		['pending', 'queued'],
		['in_progress', 'running'],
		['completed', 'succeeded'],
		['failed', 'failed'],
		['cancelled', 'cancelled']
	] as const)('maps the polled job state %s to %s', (state, status) => {
		expect(applyJobState(fresh(), state, 5).status).toBe(status);
	});

	it('reads outputs and the outcome from a history entry', () => {
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, ['9']],
			outputs: { '9': { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } },
			status: { status_str: 'success', completed: true, messages: [] },
			meta: {}
		};
		const run = applyHistory(fresh(), entry, 5);
		expect(run.status).toBe('succeeded');
		expect(run.outputs).toHaveLength(1);
		const failed = applyHistory(
			fresh(),
			{
				...entry,
				outputs: {},
				status: {
					status_str: 'error',
					completed: false,
					messages: [['execution_error', { exception_type: 'ModelDownloadError', exception_message: 'no such file', node_id: '4' }]]
				}
			},
			5
		);
		expect(failed).toMatchObject({ status: 'failed', error: { exceptionType: 'ModelDownloadError', nodeId: '4' } });
		const interrupted = applyHistory(
			fresh(),
			{ ...entry, outputs: {}, status: { status_str: 'error', completed: false, messages: [['execution_interrupted', {}]] } },
			5
		);
		expect(interrupted.status).toBe('interrupted');
	});

	it('tells an interrupted run from a cancelled one: where it stopped, with the outputs and texts of the nodes that finished', () => {
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, ['9', '20']],
			outputs: { '20': { text: ['a red fox'] }, '9': { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } },
			status: {
				status_str: 'error',
				completed: false,
				messages: [['execution_interrupted', { prompt_id: 'p1', node_id: '3', node_type: 'KSampler', executed: ['4', '20'] }]]
			},
			meta: {}
		};
		const run = applyHistory(fresh(), entry, 5);
		expect(run).toMatchObject({
			status: 'interrupted',
			interruptedAt: { nodeId: '3', nodeType: 'KSampler' },
			texts: [{ nodeId: '20', text: 'a red fox' }]
		});
		expect(run.outputs).toHaveLength(1);
		const live = applyServerEvent(
			play(fresh(), [ev.start]),
			{ type: 'execution_interrupted', promptId: 'p1', nodeId: '3', nodeType: 'KSampler' },
			6
		);
		expect(live).toMatchObject({ status: 'interrupted', interruptedAt: { nodeId: '3', nodeType: 'KSampler' } });
	});

	it('calls a job stopped mid-run interrupted even where the service words it cancelled, read before or after the socket event', () => {
		const stopped: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, ['9']],
			outputs: {},
			status: {
				status_str: 'cancelled',
				completed: false,
				messages: [['execution_interrupted', { prompt_id: 'p1', node_id: '3', node_type: 'KSampler', executed: ['4'] }]]
			},
			meta: {}
		};
		const event = { type: 'execution_interrupted' as const, promptId: 'p1', nodeId: '3', nodeType: 'KSampler' };
		const historyFirst = applyServerEvent(applyHistory(play(fresh(), [ev.start]), stopped, 5), event, 6);
		const eventFirst = applyHistory(applyServerEvent(play(fresh(), [ev.start]), event, 5), stopped, 6);
		expect(historyFirst).toMatchObject({ status: 'interrupted', interruptedAt: { nodeId: '3', nodeType: 'KSampler' } });
		expect(eventFirst).toMatchObject({ status: 'interrupted', interruptedAt: { nodeId: '3', nodeType: 'KSampler' } });
		const removedWhileWaiting = applyHistory(
			fresh(),
			{ ...stopped, status: { status_str: 'cancelled', completed: false, messages: [] } },
			5
		);
		expect(removedWhileWaiting.status).toBe('cancelled');
	});

	it.each([
		{ what: "a local ComfyUI's SaveWEBM under images (animated)", filename: 'ComfyUI_00001_.webm', kind: 'video' },
		{ what: "a local ComfyUI's SaveVideo under images", filename: 'video/ComfyUI_00001_.MP4', kind: 'video' },
		{ what: 'an animated WebP stays a picture', filename: 'ComfyUI_00001_.webp', kind: 'image' },
		{ what: 'a PNG', filename: 'ComfyUI_00001_.png', kind: 'image' }
	])('reads an output listed under images by its file: $what is a $kind', ({ filename, kind }) => {
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, ['9']],
			outputs: { '9': { images: [{ filename, subfolder: '', type: 'output' }], animated: [true] } },
			status: { status_str: 'success', completed: true, messages: [] },
			meta: {}
		};
		expect(applyHistory(fresh(), entry, 5).outputs.map((o) => o.kind)).toEqual([kind]);
		const executed = { ...ev.executed, output: { ...ev.executed.output, images: [{ filename, subfolder: '', type: 'output' as const }] } };
		expect(play(fresh(), [ev.start, executed]).outputs.map((o) => o.kind)).toEqual([kind]);
	});

	it('keeps a text output from executed once, however often it is told', () => {
		const executed = {
			type: 'executed' as const,
			promptId: 'p1',
			node: '20',
			output: { images: [], video: [], audio: [], other: { text: ['hello'] } }
		};
		const run = play(fresh(), [ev.start, executed, executed]);
		expect(run.texts).toEqual([{ nodeId: '20', text: 'hello' }]);
	});
});

describe('a failure polled before its reason arrived', () => {
	it('takes the reason from the socket or the history, and only then falls back to a generic one', async () => {
		const { explainFailure } = await import('./run-reducer');
		const polled = applyJobState(fresh(), 'failed', 5);
		expect(polled.status).toBe('failed');
		expect(polled.error).toBeUndefined();
		expect(applyServerEvent(polled, ev.error, 6).error).toMatchObject({ exceptionType: 'OOMError' });
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, []],
			outputs: {},
			status: {
				status_str: 'error',
				completed: false,
				messages: [['execution_error', { exception_type: 'OOMError', exception_message: 'too big', node_id: '5' }]]
			},
			meta: {}
		};
		expect(applyHistory(polled, entry, 6).error).toMatchObject({ exceptionType: 'OOMError', nodeId: '5' });
		expect(explainFailure(polled).error?.message).toMatch(/no details/);
	});
});

describe('a v2 cancel and an expired job', () => {
	const running = () => applyServerEvent(fresh(), ev.start, 1);

	it('says cancelling until the terminal state, and never cancelled before the service does', () => {
		const canceling = applyCanceling(running());
		expect(canceling).toMatchObject({ status: 'running', canceling: true });
		expect(applyJobState(canceling, 'in_progress', 2).status).toBe('running');
		const cancelled = applyJobState(canceling, 'cancelled', 3);
		expect(cancelled.status).toBe('cancelled');
		expect(finishedBeforeCancel(cancelled)).toBe(false);
	});

	it('a job that finished before the cancel took effect says so', () => {
		const done = applyJobState(applyCanceling(running()), 'completed', 3);
		expect(done.status).toBe('succeeded');
		expect(finishedBeforeCancel(done)).toBe(true);
		expect(finishedBeforeCancel(applyJobState(running(), 'completed', 3))).toBe(false);
	});

	it('a finished run is not marked as cancelling afterwards', () => {
		const done = applyJobState(running(), 'completed', 3);
		expect(applyCanceling(done)).toBe(done);
	});

	it('an expired job is shown as expired, keeping the outputs it had', () => {
		const withOutput = applyServerEvent(running(), ev.executed, 2);
		const entry: HistoryEntry = {
			prompt: [0, 'p1', {}, {}, []],
			outputs: {},
			status: { status_str: 'error', completed: false, messages: [['execution_error', { exception_type: EXPIRED_EXCEPTION }]] },
			meta: {}
		};
		const expired = applyHistory(applyJobState(withOutput, 'failed', 3), entry, 3);
		expect(isExpired(expired)).toBe(true);
		expect(expired.error).toMatchObject({ title: 'Expired', message: expect.stringMatching(/still available/) });
		expect(expired.outputs).toHaveLength(1);
	});
});
