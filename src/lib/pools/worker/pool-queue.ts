/** Reads the pool's queue view: each member's queue now, this pool's open runs there, and its recent durations. */
import type { WorkerContext } from '../../core/worker/context';
import type { Pool, PoolQueueView } from '../protocol/pool';
import { typicalDuration } from '../rules/choose-member';
import { poolLane } from '../rules/pool-lanes';
import type { MemberDurations } from './durations';
import type { PoolRunPort } from './run-port';
import type { SeenQueues } from './seen-queues';

export async function readPoolQueue(
	pool: Pool,
	deps: { ctx: WorkerContext; runs: PoolRunPort; durations: MemberDurations; seen: SeenQueues },
	now: number
): Promise<PoolQueueView> {
	const open = (await deps.runs.openRuns()).filter((r) => r.pool?.poolId === pool.id);
	const lanes = await Promise.all(
		pool.members.map(async (member) => {
			const runs = open.filter((r) => r.profileId === member.profileId);
			const workflows = [null, ...new Set(runs.flatMap((r) => (r.workflowId ? [r.workflowId] : [])))];
			const [profile, queue, typical] = await Promise.all([
				deps.ctx.profiles.get(member.profileId),
				deps.runs.queue(member.profileId),
				// Similar work: the same workflow's runs there (the member's runs of any kind when it has none).
				Promise.all(workflows.map(async (id) => [id, typicalDuration(await deps.durations.recent(member.profileId, id), null)] as const))
			]);
			const typicalOf = new Map<string | null, number | null>(typical);
			return poolLane(
				{
					member,
					name: profile?.name ?? 'A deleted profile',
					queue: queue.ok ? { running: queue.value.running, waiting: queue.value.pending } : null,
					problem: queue.ok ? null : queue.error.message,
					runs,
					seenRunning: deps.seen.runningOn(member.profileId),
					typicalMs: (workflowId) => typicalOf.get(workflowId) ?? typicalOf.get(null) ?? null,
					answersAgainSince: deps.seen.answersAgainSince(member.profileId, member.enabled, now),
					lastReadAt: deps.seen.lastReadAt(member.profileId)
				},
				now
			);
		})
	);
	return { poolId: pool.id, lanes, readAt: now };
}
