/**
 * A run taken off its server so that a pool can send it elsewhere. Never both at once: the run is
 * first confirmed gone from there (a waiting job cancelled and read back as never started, or the
 * server's own word that it forgot the job, or the person's word that the server is gone), and only
 * the run ended here says where it went. A job that started is never handed over: sending it again
 * is the person's call (run it again), never this one's.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { isTerminal, type WorkflowRun } from '../rules/run-record';
import type { HandOverInput } from '../protocol/api';
import { applyHistory } from '../rules/run-reducer';
import type { RunTracker } from './run-tracker';
import type { RunsRepo } from './runs-repo';
import type { Surfaces } from './surfaces';

export async function handOverRun(
	deps: { runs: RunsRepo; tracker: RunTracker; surfaces: Surfaces },
	input: HandOverInput
): Promise<Result<WorkflowRun>> {
	const run = deps.tracker.newest(input.runId) ?? (await deps.runs.get(input.runId));
	if (!run) return fail(appError('not-found', 'This run is no longer here.'));
	if (run.movedTo) return fail(appError('invalid-input', 'This run was already moved to another member.'));
	const started = run.startedAt !== undefined || run.status === 'running';
	if (input.how === 'gone') {
		if (input.movedTo && started)
			return fail(appError('invalid-input', 'This run had started on its server: it is sent again only when you run it again.'));
		if (isTerminal(run.status) && run.status !== 'lost') return fail(appError('invalid-input', `This run already ended (${run.status}).`));
		return ok(deps.tracker.handedOver(run, { status: 'lost', error: input.why, ...(input.movedTo ? { movedTo: input.movedTo } : {}) }));
	}
	if (run.status !== 'queued' || started || !run.promptId)
		return fail(appError('invalid-input', 'Only a run still waiting in its server’s queue can be moved.'));
	const surface = await deps.surfaces.for(run.profileId);
	if (!surface.ok) return surface;
	const handle = await deps.tracker.handleOf(run.promptId);
	const cancelled = await surface.value.cancel([handle]);
	if (!cancelled.ok) return fail(appError(cancelled.error.kind, `The server did not take the cancel: ${cancelled.error.message}`));
	const reading = await surface.value.read(handle);
	if (!reading.ok) return fail(appError(reading.error.kind, `The server could not confirm the cancel: ${reading.error.message}`));
	const confirmed = (() => {
		switch (reading.value.kind) {
			case 'vanished':
			case 'not-found':
				return true;
			case 'waiting':
				return false;
			case 'history':
				return applyHistory(run, reading.value.entry, Date.now()).status === 'cancelled';
			case 'status':
				return reading.value.history ? applyHistory(run, reading.value.history, Date.now()).status === 'cancelled' : false;
		}
	})();
	if (!confirmed) {
		void deps.tracker.pollAll(); // it may have started meanwhile: its own state says so
		return fail(appError('invalid-input', 'The server kept the job, or it started before the cancel: it was not moved.'));
	}
	return ok(deps.tracker.handedOver(run, { status: 'cancelled', movedTo: input.movedTo }));
}
