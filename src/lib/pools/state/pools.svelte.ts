/**
 * The pools, kept live from the worker, and where the open workflow's runs go: the profile in use,
 * or a pool (optionally pinned to one member). A pool's run answers as a profile's does, so the
 * workflow form shows its problems the same way.
 */
import { fail, type Result } from '$lib/core/protocol/errors';
import type { WorkflowRun } from '$lib/core/protocol/workflow-run';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { SubmitRunError, SubmitRunInput } from '$lib/workflows';
import type { GoneReport, MoveError, Pool, PoolFieldErrors, PoolInput, PoolQueueView } from '../protocol/pool';
import { placeWords } from '../rules/place-words';
import { asSubmitError } from '../rules/submit-error';

export class PoolsStore {
	pools = $state<Pool[]>([]);
	loaded = $state(false);
	/** Where the workflow form's Run sends: null for the profile in use. */
	targetPoolId = $state<string | null>(null);
	pin = $state<string | null>(null);

	target = $derived(this.pools.find((p) => p.id === this.targetPoolId) ?? null);

	private loading: Promise<void> | undefined;

	load(): Promise<void> {
		return (this.loading ??= this.doLoad());
	}

	private async doLoad(): Promise<void> {
		onWorkerEvent((event) => {
			if (event.type === 'pools') this.pools = event.pools;
		});
		this.pools = await workerApi().listPools({});
		this.loaded = true;
	}

	save(pool: PoolInput): Promise<Result<Pool, PoolFieldErrors>> {
		return workerApi().savePool({ pool });
	}

	remove(id: string): Promise<void> {
		if (this.targetPoolId === id) this.targetPoolId = null;
		return workerApi().deletePool({ id });
	}

	/** Where a pool's run went, in words; null for a run sent to its profile directly. */
	whereWords(run: WorkflowRun, nameOf: (profileId: string) => string): string | null {
		return run.pool ? placeWords(run.pool, nameOf(run.profileId), nameOf) : null;
	}

	queue(poolId: string): Promise<Result<PoolQueueView>> {
		return workerApi().poolQueue({ poolId });
	}

	moveRun(runId: string, to: string | null): Promise<Result<WorkflowRun, MoveError>> {
		return workerApi().moveRun({ runId, to });
	}

	memberGone(poolId: string, profileId: string): Promise<Result<GoneReport>> {
		return workerApi().memberGone({ poolId, profileId });
	}

	switchMemberOn(poolId: string, profileId: string): Promise<Result<Pool>> {
		return workerApi().switchMemberOn({ poolId, profileId });
	}

	resetSpend(poolId: string): Promise<Result<Pool>> {
		return workerApi().resetSpend({ poolId });
	}

	choose(poolId: string | null): void {
		this.targetPoolId = poolId;
		this.pin = null;
	}

	/** Sends a run the form made for `input.profileId` through the chosen pool; its input files come from that profile. */
	async submit(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>> {
		const pool = this.target;
		if (!pool) return workerApi().submitRun(input);
		const { profileId, ...run } = input;
		const sent = await workerApi().submitPoolRun({ ...run, poolId: pool.id, pin: this.pin, sourceProfileId: profileId });
		return sent.ok ? sent : fail(asSubmitError(sent.error));
	}
}

export const pools = new PoolsStore();
