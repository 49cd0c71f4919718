/**
 * Tells the page and storage about a run's new state without flooding either: storage at most
 * once a second and the page at most every 50 ms, both at once when the change matters.
 */
import { isTerminal, type WorkflowRun } from '../rules/run-record';
import type { WorkflowContext } from './socket-message';
import type { RunsRepo } from './runs-repo';

const PERSIST_EVERY_MS = 1000;
const EMIT_EVERY_MS = 50;

export class RunPublisher {
	private readonly lastPersist = new Map<string, number>();
	private readonly lastEmit = new Map<string, number>();
	private readonly pendingEmit = new Map<string, ReturnType<typeof setTimeout>>();

	constructor(
		private readonly ctx: WorkflowContext,
		private readonly runs: RunsRepo,
		private readonly now: () => number,
		/** The newest state of an open run, sent in place of an older one when a throttled emit fires. */
		private readonly newest: (runId: string) => WorkflowRun | undefined
	) {}

	publish(run: WorkflowRun, important: boolean): void {
		const t = this.now();
		if (important || isTerminal(run.status) || t - (this.lastPersist.get(run.id) ?? 0) >= PERSIST_EVERY_MS) {
			this.lastPersist.set(run.id, t);
			void this.runs.put(run);
		}
		this.emitRun(run, important || isTerminal(run.status));
	}

	private emitRun(run: WorkflowRun, now: boolean): void {
		clearTimeout(this.pendingEmit.get(run.id));
		const t = this.now();
		const wait = EMIT_EVERY_MS - (t - (this.lastEmit.get(run.id) ?? 0));
		const send = () => {
			this.pendingEmit.delete(run.id);
			this.lastEmit.set(run.id, this.now());
			this.ctx.emit({ type: 'run', run: this.newest(run.id) ?? run });
			if (isTerminal(run.status)) void this.runs.put(run);
		};
		if (now || wait <= 0) send();
		else this.pendingEmit.set(run.id, setTimeout(send, wait));
	}
}
