/**
 * Where the worker is assembled: the core, each feature on the core's context, and what each
 * feature plugs into the core (the live socket, the connection test, its part in deleting a profile). The core knows
 * no feature; this file knows them all (docs/decisions/0010-worker-composition.md).
 */
import type { WorkerApi } from '../core/protocol/worker-api';
import { RunboardWorker } from '../core/worker/runboard-worker';
import type { WorkerEnv } from '../core/worker/worker-env';
import { HistoryService } from '../history/worker/history-service';
import { removeModelRunsOf } from '../models/worker/run-repo';
import { ModelService } from '../models/worker/model-service';
import { StorageService } from '../storage/worker/storage-service';
import { TimelineService } from '../timeline/worker/timeline-service';
import { testConnection } from '../workflows/worker/connection-test';
import { ProfileSocket } from '../workflows/worker/profile-socket';
import { RunsRepo } from '../workflows/worker/runs-repo';
import { WorkflowService } from '../workflows/worker/workflow-service';
import { SweepService } from '../sweeps/worker/sweep-service';
import { PoolService } from '../pools/worker/pool-service';

export interface ComposedWorker {
	core: RunboardWorker;
	api: WorkerApi;
}

export function composeWorker(env: WorkerEnv): ComposedWorker {
	const core = new RunboardWorker({ ...env, testConnection });
	const ctx = core.context;

	const socket = new ProfileSocket(ctx);
	core.useLiveLink((profile, key, onState) => socket.open(profile, key, onState));
	// Deleting a profile removes its workflow runs, then its model runs, each with the bytes they kept.
	core.onProfileDeleted((profileId) => new RunsRepo(ctx.kv).removeProfile(profileId));
	core.onProfileDeleted((profileId) => removeModelRunsOf(ctx.kv, profileId));

	const workflows = new WorkflowService({ ...ctx, onSocketMessage: (listener) => socket.subscribe(listener) });
	const models = new ModelService(ctx);
	const runs = workflows.api();
	// A pool's run is an ordinary run on the member's profile: the pool only chooses the member.
	const pools = new PoolService(ctx, {
		submit: (input) => runs.submitRun(input),
		nodes: async (profileId) => {
			const info = await runs.objectInfo({ profileId });
			return info.ok ? { ok: true, value: info.value.nodes } : info;
		},
		queue: (profileId) => runs.queue({ profileId }),
		wake: async (profileId) => {
			const profile = await ctx.profiles.get(profileId);
			if (profile) ctx.serverGate?.(new URL(profile.workflowUrl).origin).wake();
		},
		inputFile: (profileId, name) => runs.inputImage({ profileId, name }),
		sendInput: (profileId, file) => runs.uploadInput({ profileId, uploadId: crypto.randomUUID(), file }),
		openRuns: () => workflows.openRuns(),
		getRun: (id) => runs.getRun({ id }),
		handOver: (input) => workflows.handOver(input)
	});
	core.onProfileDeleted((profileId) => pools.removeProfile(profileId).then(() => []));
	const poolApi = pools.api();
	// A sweep's cells are ordinary workflow runs: it sends and follows them through the workflow feature.
	const sweeps = new SweepService(
		ctx,
		{
			submit: (input, poolId) => (poolId === null ? runs.submitRun(input) : pools.submitAsProfileRun(input, poolId)),
			poolCapacity: (poolId) => pools.capacity(poolId),
			getRun: (id) => runs.getRun({ id }),
			stopRun: (runId) => runs.stopRun({ runId }),
			deleteRun: (id) => runs.deleteRun({ id }),
			output: (runId, index) => runs.output({ runId, index }),
			cachedOutput: async (runId, index) => (await new RunsRepo(ctx.kv).output(runId, index)) ?? null,
			surfaceKind: async (profileId) => {
				const kind = await runs.workflowSurface({ profileId });
				return kind.ok ? kind.value : null;
			}
		},
		{
			// A model sweep's cells are ordinary model runs, each under the key the sweep stored for it. They are
			// synchronous calls (at most four held open), so the router's in-flight limit paces them: its 429 sends
			// a cell back to wait. A queued request would be paced by the router's own queue, never refused.
			start: (input) => models.runs.start({ ...input, mode: 'sync' }),
			getRun: async (id) => (await models.runs.repo.get(id)) ?? null,
			cancel: async (id) => {
				const run = await models.runs.repo.get(id);
				return run?.queue ? models.runs.cancel({ id }) : models.runs.stopWaiting({ id });
			},
			deleteRun: (id) => models.api().deleteModelRun({ id }),
			bytes: (key) => models.api().modelBytes({ key })
		}
	);
	core.onProfileDeleted((profileId) => sweeps.removeProfile(profileId).then(() => []));
	const api: WorkerApi = {
		...core.api(),
		...workflows.api(),
		// The storage page lists each sweep with what it keeps, and frees it as one.
		...new StorageService(ctx, { list: () => sweeps.holdings(), removeThumbnails: (id) => sweeps.removeThumbnails(id) }).api(),
		...new HistoryService(ctx).api(),
		...new TimelineService(ctx).api(),
		...models.api(),
		...sweeps.api(),
		...poolApi
	};
	return { core, api };
}
