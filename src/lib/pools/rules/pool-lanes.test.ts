import { describe, expect, it } from 'vitest';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import { poolLane, type LaneInput } from './pool-lanes';

const run = (id: string, workflowId: string, over: Partial<WorkflowRun> = {}): WorkflowRun =>
	({
		id,
		promptId: `p-${id}`,
		workflowId,
		title: id,
		status: 'queued',
		progress: { done: [], total: 0, current: null, step: null, finishing: false },
		...over
	}) as WorkflowRun;

const job = (r: WorkflowRun) => ({ promptId: r.promptId!, runId: r.id, title: r.title });

function lane(runs: WorkflowRun[], typical: Record<string, number>): LaneInput {
	return {
		member: { profileId: 'a', weight: 1, enabled: true, paid: false, pricePerRunCents: null },
		name: 'GPU A',
		queue: { running: runs.slice(0, 1).map(job), waiting: runs.slice(1).map(job) },
		problem: null,
		runs,
		seenRunning: new Set(),
		typicalMs: (workflowId) => typical[workflowId ?? ''] ?? null,
		answersAgainSince: null,
		lastReadAt: 0
	};
}

describe('poolLane', () => {
	it("expects each run's end from the member's durations for that workflow, one after another", () => {
		const runs = [run('upscale', 'up', { startedAt: 1000 }), run('portrait', 'txt'), run('portrait 2', 'txt')];
		const view = poolLane(lane(runs, { up: 20_000, txt: 5000 }), 2000);
		expect(view.running.map((r) => r.expectedFinishAt)).toEqual([21_000]);
		expect(view.waiting.map((r) => r.expectedFinishAt)).toEqual([26_000, 31_000]);
	});

	it('says unknown, not a guess, for a run of work never timed there and every run behind it', () => {
		const runs = [run('portrait', 'txt'), run('new kind', 'video'), run('portrait 2', 'txt')];
		const view = poolLane(lane(runs, { txt: 5000 }), 0);
		expect([...view.running, ...view.waiting].map((r) => r.expectedFinishAt)).toEqual([5000, null, null]);
	});
});
