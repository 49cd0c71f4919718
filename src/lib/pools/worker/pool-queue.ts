/** Reads the pool's queue view: each member's queue now, this pool's open runs there, and its recent durations. */
import type { WorkerContext } from '../../core/worker/context';
import type { Pool, PoolQueueView } from '../protocol/pool';
import { typicalDuration } from '../rules/choose-member';
import { poolLane } from '../rules/pool-lanes';
import type { MemberDurations } from './durations';
import { UNKNOWN_DURATION_MS } from './pool-placer';
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
			const [profile, queue, durations] = await Promise.all([
				deps.ctx.profiles.get(member.profileId),
				deps.runs.queue(member.profileId),
				deps.durations.recent(member.profileId, null)
			]);
			return poolLane(
				{
					member,
					name: profile?.name ?? 'A deleted profile',
					queue: queue.ok ? { running: queue.value.running, waiting: queue.value.pending } : null,
					problem: queue.ok ? null : queue.error.message,
					runs: open.filter((r) => r.profileId === member.profileId),
					seenRunning: deps.seen.runningOn(member.profileId),
					typicalMs: typicalDuration(durations, UNKNOWN_DURATION_MS)
				},
				now
			);
		})
	);
	return { poolId: pool.id, lanes, readAt: now };
}
