import { describe, expect, it } from 'vitest';
import { SWEEP_SCHEMA_VERSION, type SweepAxis, type SweepRecord } from '../protocol/sweep';
import { planCells } from './sweep-plan';
import { stepSweep, type StepContext, type SweepInput } from './sweep-reducer';

const axes: SweepAxis[] = [
	{ fieldId: '3.seed', path: ['3', 'seed'], label: 'seed', seed: true, values: [1, 2, 3], pairedWithPrevious: false },
	{ fieldId: '3.cfg', path: ['3', 'cfg'], label: 'cfg', seed: false, values: [4, 8], pairedWithPrevious: false }
];

function sweep(window = 2): SweepRecord {
	return {
		schemaVersion: SWEEP_SCHEMA_VERSION,
		id: 's1',
		profileId: 'p',
		workflowId: 'w',
		title: 'T',
		base: {},
		seeds: {},
		axes,
		cells: planCells(axes),
		status: 'running',
		createdAt: 0,
		window
	};
}

function context(now = 1000, dispatch = true): StepContext {
	let n = 0;
	return { now, dispatch, newId: () => `id${++n}` };
}

/** Runs inputs in order from a fresh sweep, returning the last step. */
function after(inputs: SweepInput[], start = sweep(), ctx = context()) {
	let step = stepSweep(start, { kind: 'tick' }, ctx);
	for (const input of inputs) step = stepSweep(step.sweep, input, ctx);
	return step;
}

describe('stepSweep', () => {
	it('follows a cell whose run a pool moved to another member, and reopens the sweep the old run had ended', () => {
		const ctx = context();
		let step = after([], sweep(6), ctx);
		step = stepSweep(step.sweep, { kind: 'sent', index: 0 }, ctx);
		const ids = step.sweep.cells.map((c) => c.runId!);
		// Five succeed; the sixth's server forgets it (lost), which settles it and ends the sweep...
		for (const runId of ids.slice(0, 5)) step = stepSweep(step.sweep, { kind: 'run', runId, status: 'succeeded' }, ctx);
		step = stepSweep(step.sweep, { kind: 'run', runId: ids[5]!, status: 'lost' }, ctx);
		expect(step.sweep.status).toBe('finished');
		// ...then the pool says where it went: the cell follows that run, and the sweep runs again until it ends.
		step = stepSweep(step.sweep, { kind: 'run', runId: ids[5]!, status: 'lost', movedTo: { runId: 'moved', promptId: 'moved-job' } }, ctx);
		expect(step.sweep.status).toBe('running');
		expect(step.sweep.cells[5]).toMatchObject({ status: 'sending', runId: 'moved', promptId: 'moved-job', attempts: 1 });
		expect(step.effects).toEqual([]); // the pool sends it, not the sweep
		step = stepSweep(step.sweep, { kind: 'run', runId: 'moved', status: 'succeeded' }, ctx);
		expect(step.sweep.status).toBe('finished');
		expect(step.sweep.cells.every((c) => c.status === 'succeeded')).toBe(true);
	});
	it('sends as many cells as the window allows, with ids stored before the send', () => {
		const { sweep: s, effects } = stepSweep(sweep(2), { kind: 'tick' }, context());
		expect(effects).toEqual([
			{ kind: 'send', index: 0, runId: 'id1', promptId: 'id2' },
			{ kind: 'send', index: 1, runId: 'id3', promptId: 'id4' }
		]);
		expect(s.cells.map((c) => c.status)).toEqual(['sending', 'sending', 'pending', 'pending', 'pending', 'pending']);
	});
	it('sends the next cell only when one ends', () => {
		const ctx = context();
		const first = stepSweep(sweep(2), { kind: 'tick' }, ctx);
		const queued = stepSweep(first.sweep, { kind: 'sent', index: 0 }, ctx);
		expect(queued.effects).toEqual([]);
		const running = stepSweep(queued.sweep, { kind: 'run', runId: 'id1', status: 'running' }, ctx);
		expect(running.effects).toEqual([]);
		const done = stepSweep(running.sweep, { kind: 'run', runId: 'id1', status: 'succeeded' }, ctx);
		expect(done.effects).toEqual([{ kind: 'send', index: 2, runId: 'id5', promptId: 'id6' }]);
	});
	it('never moves a cell back: a late queued after the end is ignored', () => {
		const s = after([
			{ kind: 'run', runId: 'id1', status: 'succeeded' },
			{ kind: 'run', runId: 'id1', status: 'queued' }
		]);
		expect(s.sweep.cells[0]!.status).toBe('succeeded');
	});
	it('waits out a refusal, then sends the cell again as a new run', () => {
		const ctx = context(1000);
		const first = stepSweep(sweep(1), { kind: 'tick' }, ctx);
		const refused = stepSweep(first.sweep, { kind: 'refused', index: 0, retryAfterMs: 5000, message: 'queue full' }, ctx);
		expect(refused.effects).toEqual([
			{ kind: 'discard-run', runId: 'id1' },
			{ kind: 'wake-at', at: 6000 }
		]);
		expect(refused.sweep.cells[0]).toMatchObject({ status: 'pending', runId: null });
		const later = stepSweep(refused.sweep, { kind: 'tick' }, { ...ctx, now: 6000 });
		expect(later.effects).toEqual([{ kind: 'send', index: 0, runId: 'id3', promptId: 'id4' }]);
		expect(later.sweep.waitUntil).toBeUndefined();
	});
	it('after a reload follows cells that were sent and sends again only those never sent', () => {
		const ctx = context();
		const first = stepSweep(sweep(2), { kind: 'tick' }, ctx);
		const resumed = stepSweep(first.sweep, { kind: 'never-sent', index: 1 }, ctx);
		// Same ids: nothing was sent with them.
		expect(resumed.effects).toEqual([{ kind: 'send', index: 1, runId: 'id3', promptId: 'id4' }]);
		expect(resumed.sweep.cells[1]!.attempts).toBe(2);
	});
	it('pauses and resumes sending', () => {
		const ctx = context();
		const paused = after(
			[
				{ kind: 'action', action: 'pause' },
				{ kind: 'run', runId: 'id1', status: 'succeeded' }
			],
			sweep(2),
			ctx
		);
		expect(paused.effects).toEqual([]);
		const resumed = stepSweep(paused.sweep, { kind: 'action', action: 'resume' }, ctx);
		expect(resumed.effects.map((e) => e.kind)).toEqual(['send']);
	});
	it('cancel skips the cells not sent and stops those on the server', () => {
		const s = after([
			{ kind: 'sent', index: 0 },
			{ kind: 'action', action: 'cancel' }
		]);
		expect(s.effects).toEqual([{ kind: 'stop', runIds: ['id1', 'id3'] }]);
		expect(s.sweep.status).toBe('cancelled');
		expect(s.sweep.cells.map((c) => c.status)).toEqual(['queued', 'sending', 'skipped', 'skipped', 'skipped', 'skipped']);
	});
	it('ends when every cell is settled, and retry-failed sends the failed ones again', () => {
		let step = stepSweep(sweep(6), { kind: 'tick' }, context());
		const ids = step.sweep.cells.map((c) => c.runId!);
		ids.forEach(
			(runId, i) => (step = stepSweep(step.sweep, { kind: 'run', runId, status: i === 2 ? 'lost' : 'succeeded' }, context(5000)))
		);
		expect(step.sweep.status).toBe('finished');
		const retry = stepSweep(step.sweep, { kind: 'action', action: 'retry-failed' }, context(6000));
		expect(retry.sweep.status).toBe('running');
		expect(retry.effects).toEqual([{ kind: 'send', index: 2, runId: 'id1', promptId: 'id2' }]);
	});
	it('leaves the sending to the leader: another tab only changes the record', () => {
		const step = stepSweep(sweep(2), { kind: 'action', action: 'resume' }, context(1000, false));
		expect(step.effects).toEqual([]);
	});
	it.each<[string, string | undefined, string | null, string | undefined]>([
		['picks an output to show', undefined, '9', '9'],
		['picks another', '9', '7', '7'],
		["goes back to each run's first", '9', null, undefined],
		['keeps the record when nothing changes', '9', '9', '9']
	])('the output shown: %s', (_name, before, source, after) => {
		const finished = { ...sweep(), status: 'finished' as const, ...(before ? { shownSource: before } : {}) };
		const step = stepSweep(finished, { kind: 'show', source }, context());
		expect(step.sweep.shownSource).toBe(after);
		expect('shownSource' in step.sweep).toBe(after !== undefined);
		expect(step.effects).toEqual([]);
		if (before === after) expect(step.sweep).toBe(finished);
	});
});
