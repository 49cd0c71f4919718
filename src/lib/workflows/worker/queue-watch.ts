/**
 * Jobs in the active profile's queue that no run here knows (started on another device or client),
 * followed from then on as runs marked "started elsewhere". Runs in the leader tab's worker, beside
 * the run tracker, which it hands the runs it adopts.
 */
import type { WorkflowRun } from '../rules/run-record';
import type { ApiPrompt } from '../protocol/workflow-api';
import type { AppTimings } from '../../core/protocol/app-timings';
import type { WorkflowContext } from './socket-message';
import type { RunsRepo } from './runs-repo';
import type { Surfaces } from './surfaces';
import { followsJobStreams, type ActiveJob } from './surfaces/surface';
import { elsewhereRun, foreignJob } from './run-adoption';

export interface AdoptingTracker {
	/** A run here follows this job already, or it was deleted here. */
	knows(promptId: string): boolean;
	track(run: WorkflowRun): void;
	/** A job found elsewhere, saved as a run: shown at once. */
	adopted(run: WorkflowRun): void;
}

export class QueueWatch {
	private last = 0;
	/** The last list read, which the run tracker's own queue check may use rather than read it again. */
	private lastList: { profileId: string; at: number; jobs: ActiveJob[] } | undefined;
	private readonly adopting = new Set<string>();

	constructor(
		private readonly ctx: WorkflowContext,
		private readonly runs: RunsRepo,
		private readonly surfaces: Surfaces,
		private readonly tracker: AdoptingTracker,
		private readonly timings: () => AppTimings,
		private readonly now: () => number
	) {}

	async watch(): Promise<void> {
		if (!this.ctx.isLeader() || this.now() - this.last < this.timings().queueWatchMs / 2) return;
		const profileId = await this.ctx.profiles.activeId();
		// A server that does not answer is read at the backoff's pace only: its gate holds the reads back.
		if (!profileId) return;
		const surface = await this.surfaces.for(profileId);
		if (!surface.ok) return;
		// A v2 server has no socket that tells of other clients' jobs: its job list is the only way, and each
		// read costs the proxy two reads of ComfyUI per job. Read it at the live-queue pace there.
		const every = followsJobStreams(surface.value) ? Math.max(this.timings().queueWatchMs, this.timings().liveQueueEveryMs / 2) : 0;
		if (this.now() - this.last < every) return;
		this.last = this.now();
		const active = await surface.value.activeJobs();
		if (!active.ok) return;
		this.lastList = { profileId, at: this.now(), jobs: active.value };
		for (const job of active.value) {
			if (!this.tracker.knows(job.promptId) && !(await this.runs.byPromptId(job.promptId)))
				await this.adopt(profileId, job.promptId, job.prompt);
		}
	}

	/** The profile's active jobs as read at most `maxAgeMs` ago (and after `changedAt`, when the server said its queue changed), if they were. */
	recentList(profileId: string, maxAgeMs: number, changedAt = -Infinity): ActiveJob[] | undefined {
		const list = this.lastList;
		const fresh = list && list.profileId === profileId && this.now() - list.at <= maxAgeMs && list.at > changedAt;
		return fresh ? list.jobs : undefined;
	}

	/** Follows a job this installation did not submit, as a run marked "started elsewhere". */
	async adopt(profileId: string, promptId: string, prompt?: ApiPrompt): Promise<void> {
		if (this.adopting.has(promptId) || this.tracker.knows(promptId)) return;
		this.adopting.add(promptId);
		try {
			// Another tab of this browser may have stored it already (it saves before sending).
			const stored = await this.runs.byPromptId(promptId);
			if (stored) return this.tracker.track(stored);
			const job = await foreignJob(this.surfaces, profileId, promptId, prompt);
			if (!job) return;
			const run = elsewhereRun(profileId, promptId, job, this.now());
			await this.runs.put(run);
			this.tracker.track(run);
			this.tracker.adopted(run);
		} finally {
			this.adopting.delete(promptId);
		}
	}
}
