/**
 * The pool's queue view, one lane per member, from what its server's queue says now (or, for a
 * member that does not answer, this pool's runs there as last known) and its recent durations for
 * similar work (expected ends unknown where it has none). Pure.
 */
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { LaneRun, PoolLane, PoolMember } from '../protocol/pool';

export interface LaneInput {
	member: PoolMember;
	name: string;
	/** The server's queue now, by job id, in order; null when it did not answer. */
	queue: { running: QueueJob[]; waiting: QueueJob[] } | null;
	problem: string | null;
	/** This pool's runs not ended yet on this member. */
	runs: readonly WorkflowRun[];
	/** Job ids its queue was last seen running (the word on a member that stopped answering). */
	seenRunning: ReadonlySet<string>;
	/** How long a run of this workflow (null: another client's job) typically takes there, in ms; null when no run was timed there. */
	typicalMs(workflowId: string | null): number | null;
	/** See `PoolLane`. */
	answersAgainSince: number | null;
	lastReadAt: number | null;
}

export interface QueueJob {
	promptId: string;
	runId: string | null;
	title: string;
}

export function poolLane(input: LaneInput, now: number): PoolLane {
	const byId = new Map(input.runs.map((r) => [r.id, r]));
	const lane = (job: QueueJob): { run: WorkflowRun | undefined; job: QueueJob } => ({
		run: job.runId ? byId.get(job.runId) : undefined,
		job
	});
	let running: Array<{ run: WorkflowRun | undefined; job: QueueJob }>;
	let waiting: Array<{ run: WorkflowRun | undefined; job: QueueJob }>;
	if (input.queue) {
		running = input.queue.running.map(lane);
		waiting = input.queue.waiting.map(lane);
		// Sent but not in the queue yet (a submit on its way): shown waiting at the end.
		const listed = new Set([...running, ...waiting].map((e) => e.job.runId));
		for (const run of input.runs)
			if (!listed.has(run.id) && run.status === 'submitting')
				waiting.push({ run, job: { promptId: run.promptId ?? '', runId: run.id, title: run.title } });
	} else {
		const started = (r: WorkflowRun) =>
			r.status === 'running' || r.startedAt !== undefined || (r.promptId !== null && input.seenRunning.has(r.promptId));
		const entry = (run: WorkflowRun) => ({ run, job: { promptId: run.promptId ?? '', runId: run.id, title: run.title } });
		running = input.runs.filter(started).map(entry);
		waiting = input.runs.filter((r) => !started(r)).map(entry);
	}
	// One job at a time: each waiting run starts when the one before it ends; after one whose length
	// is unknown, every later end is unknown too.
	let ends: number | null = now;
	const typical = (run: WorkflowRun | undefined) => input.typicalMs(run?.workflowId ?? null);
	const runningRuns: LaneRun[] = running.map(({ run, job }) => {
		const ms = typical(run);
		const finish = ms === null ? null : run?.startedAt !== undefined ? Math.max(now, run.startedAt + ms) : now + ms;
		ends = ends === null || finish === null ? null : Math.max(ends, finish);
		return laneRun(job, run, finish);
	});
	const waitingRuns: LaneRun[] = waiting.map(({ run, job }) => {
		const ms = typical(run);
		ends = ends === null || ms === null ? null : ends + ms;
		return laneRun(job, run, ends);
	});
	return {
		profileId: input.member.profileId,
		name: input.name,
		enabled: input.member.enabled,
		paid: input.member.paid,
		answering: input.queue !== null,
		problem: input.problem,
		answersAgainSince: input.queue !== null ? input.answersAgainSince : null,
		lastReadAt: input.lastReadAt,
		running: runningRuns,
		waiting: waitingRuns
	};
}

function laneRun(job: QueueJob, run: WorkflowRun | undefined, finish: number | null): LaneRun {
	const total = run?.progress.total ?? 0;
	return {
		runId: job.runId,
		title: run?.title ?? job.title,
		inPool: run?.pool !== undefined,
		progress: run && total > 0 ? Math.min(1, run.progress.done.length / total) : null,
		expectedFinishAt: finish
	};
}
