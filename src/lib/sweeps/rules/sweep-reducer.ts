/**
 * The sweep as a pure reducer: (record, what happened) → (record, effects). The driver
 * (`worker/sweep-driver.ts`) saves the record, then performs the effects and feeds the answers back.
 * A cell is sent only after its run id and job id are in the saved record, so after a reload a cell
 * that was being sent is followed through its run, never sent twice.
 */
import type { CellStatus, SweepAction, SweepCell, SweepRecord } from '../protocol/sweep';

export type SweepInput =
	/** Time passed (a wait ended, the driver started): send what the pace allows. */
	| { kind: 'tick' }
	/** The server took the cell's job. */
	| { kind: 'sent'; index: number }
	/** The server refused for now (429 `queue_full` or the router's in-flight limit, 409 in flight): send it again later, as a new run. */
	| { kind: 'refused'; index: number; retryAfterMs: number | null; message: string }
	/** The server refused the cell for good (invalid, not accepted): its run says why. */
	| { kind: 'send-failed'; index: number; message: string }
	/**
	 * A run of this sweep moved (the tracker's events, or its record read after a reload). With
	 * `movedTo`, a pool took the run off its server and sent it to another member as that run: the
	 * cell follows the new run.
	 */
	| { kind: 'run'; runId: string; status: CellStatus; movedTo?: { runId: string; promptId: string } }
	/** After a reload: a cell marked sending has no run record, so nothing was sent; it is sent again. */
	| { kind: 'never-sent'; index: number }
	| { kind: 'action'; action: SweepAction }
	/** A person picked the output the grid shows of each run (null: each run's first). */
	| { kind: 'show'; source: string | null };

export type SweepEffect =
	| { kind: 'send'; index: number; runId: string; promptId: string }
	/** Stop these runs' jobs (cancel the rest). */
	| { kind: 'stop'; runIds: string[] }
	/** A refused cell's run was never accepted: remove it, its resend is a new run. */
	| { kind: 'discard-run'; runId: string }
	/** Tick again at this time (a Retry-After). */
	| { kind: 'wake-at'; at: number };

export interface StepContext {
	now: number;
	newId: () => string;
	/** Only the leader sends: other tabs change the record and leave the sending to it. */
	dispatch: boolean;
}

export interface Step {
	sweep: SweepRecord;
	effects: SweepEffect[];
}

const IN_FLIGHT: ReadonlySet<CellStatus> = new Set(['sending', 'queued', 'running']);
const RETRYABLE: ReadonlySet<CellStatus> = new Set(['failed', 'lost', 'interrupted']);
const DEFAULT_WAIT_MS = 2_000;

export const isInFlight = (cell: SweepCell) => IN_FLIGHT.has(cell.status);
export const isSettled = (cell: SweepCell) => cell.status !== 'pending' && !IN_FLIGHT.has(cell.status);

export function stepSweep(sweep: SweepRecord, input: SweepInput, ctx: StepContext): Step {
	const effects: SweepEffect[] = [];
	let next = sweep;
	const setCell = (index: number, change: Partial<SweepCell>) => {
		next = { ...next, cells: next.cells.map((c) => (c.index === index ? { ...c, ...change } : c)) };
	};
	switch (input.kind) {
		case 'tick':
			break;
		case 'sent': {
			const cell = next.cells[input.index];
			if (cell?.status === 'sending') setCell(input.index, { status: 'queued' });
			break;
		}
		case 'refused': {
			const cell = next.cells[input.index];
			// A model cell's synchronous call is already `running` when the router refuses it.
			if (!cell || !IN_FLIGHT.has(cell.status)) break;
			if (cell.runId) effects.push({ kind: 'discard-run', runId: cell.runId });
			setCell(input.index, { status: 'pending', runId: null, promptId: null });
			next = { ...next, waitUntil: ctx.now + (input.retryAfterMs ?? DEFAULT_WAIT_MS), lastProblem: input.message };
			break;
		}
		case 'send-failed': {
			const cell = next.cells[input.index];
			if (cell && IN_FLIGHT.has(cell.status)) setCell(input.index, { status: 'failed' });
			next = { ...next, lastProblem: input.message };
			break;
		}
		case 'run': {
			const cell = next.cells.find((c) => c.runId === input.runId);
			if (cell && input.movedTo && cell.status !== 'succeeded' && cell.status !== 'skipped') {
				setCell(cell.index, { status: 'sending', runId: input.movedTo.runId, promptId: input.movedTo.promptId });
				// The old run's end may have settled the cell, and the sweep with it: the moved run reopens it.
				if (next.status === 'finished') {
					const { finishedAt: _done, ...open } = next;
					next = { ...open, status: 'running' };
				}
				break;
			}
			// Status only moves forward: a late "queued" cannot pull a finished cell back.
			if (cell && IN_FLIGHT.has(cell.status) && input.status !== cell.status && rank(input.status) >= rank(cell.status))
				setCell(cell.index, { status: input.status });
			break;
		}
		case 'never-sent': {
			const cell = next.cells[input.index];
			if (cell?.status === 'sending') setCell(input.index, { status: 'pending' });
			break;
		}
		case 'action':
			next = act(next, input.action, effects, ctx);
			break;
		case 'show': {
			if ((next.shownSource ?? null) === input.source) break;
			const { shownSource: _old, ...rest } = next;
			next = input.source === null ? rest : { ...rest, shownSource: input.source };
			break;
		}
	}
	return schedule(next, effects, ctx);
}

function act(sweep: SweepRecord, action: SweepAction, effects: SweepEffect[], ctx: StepContext): SweepRecord {
	switch (action) {
		case 'pause':
			return sweep.status === 'running' ? { ...sweep, status: 'paused' } : sweep;
		case 'resume':
			return sweep.status === 'paused' ? { ...sweep, status: 'running' } : sweep;
		case 'cancel': {
			if (sweep.status === 'cancelled' || sweep.status === 'finished') return sweep;
			const stopping = sweep.cells.filter((c) => IN_FLIGHT.has(c.status) && c.runId).map((c) => c.runId!);
			if (stopping.length > 0) effects.push({ kind: 'stop', runIds: stopping });
			return {
				...sweep,
				status: 'cancelled',
				finishedAt: ctx.now,
				cells: sweep.cells.map((c) => (c.status === 'pending' ? { ...c, status: 'skipped' } : c))
			};
		}
		case 'retry-failed': {
			const again = sweep.cells.some((c) => RETRYABLE.has(c.status));
			if (!again) return sweep;
			const { finishedAt: _done, waitUntil: _wait, ...rest } = sweep;
			return {
				...rest,
				status: 'running',
				cells: sweep.cells.map((c) => (RETRYABLE.has(c.status) ? { ...c, status: 'pending', runId: null, promptId: null } : c))
			};
		}
	}
}

/** Sends what the pace allows, says when to look again, and ends the sweep when every cell is settled. */
function schedule(sweep: SweepRecord, effects: SweepEffect[], ctx: StepContext): Step {
	let next = sweep;
	if (next.status === 'running' && next.cells.every(isSettled)) {
		return { sweep: { ...next, status: 'finished', finishedAt: ctx.now }, effects };
	}
	if (next.status !== 'running' || !ctx.dispatch) return { sweep: next, effects };
	if (next.waitUntil !== undefined) {
		if (next.waitUntil > ctx.now) return { sweep: next, effects: [...effects, { kind: 'wake-at', at: next.waitUntil }] };
		const { waitUntil: _w, ...rest } = next;
		next = rest;
	}
	let free = next.window - next.cells.filter(isInFlight).length;
	if (free <= 0 || !next.cells.some((c) => c.status === 'pending')) return { sweep: next, effects };
	const cells = next.cells.map((c) => {
		if (free <= 0 || c.status !== 'pending') return c;
		free--;
		const sent: SweepCell = {
			...c,
			status: 'sending',
			runId: c.runId ?? ctx.newId(),
			promptId: c.promptId ?? ctx.newId(),
			attempts: c.attempts + 1
		};
		effects.push({ kind: 'send', index: c.index, runId: sent.runId!, promptId: sent.promptId! });
		return sent;
	});
	return { sweep: { ...next, cells }, effects };
}

function rank(status: CellStatus): number {
	return status === 'sending' ? 0 : status === 'queued' ? 1 : status === 'running' ? 2 : 3;
}
