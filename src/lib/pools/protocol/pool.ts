/**
 * A pool: a set of existing profiles that act as one place to run. Each member keeps its own key,
 * capabilities and queue; the pool only chooses where a run goes (the servers' queues stay the
 * schedulers). Stored durably under `pool:<id>`, like a profile.
 */
import type { Result } from '../../core/protocol/errors';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { SubmitRunError, SubmitRunInput } from '../../workflows';

export const POOL_SCHEMA_VERSION = 1;

export interface PoolMember {
	profileId: string;
	/** How strongly this member is preferred: its expected wait is divided by it (1 = as is). */
	weight: number;
	/** Switched off: kept in the pool, sent nothing. */
	enabled: boolean;
	/** Runs here cost money (a cloud service): taken only past the threshold and within the cap. */
	paid: boolean;
	/**
	 * What the person says a run here costs, in cents (set for a paid member, null for a free one):
	 * the service reports no per-run cost, so this is what the pool counts against its cap.
	 */
	pricePerRunCents: number | null;
}

export interface Pool {
	schemaVersion: typeof POOL_SCHEMA_VERSION;
	id: string;
	name: string;
	members: PoolMember[];
	/** A paid member takes a run only when the shortest expected wait elsewhere is longer than this. */
	cloudThresholdMs: number;
	/** What paid members may spend for this pool in all, in cents; null for no cap. */
	spendCapCents: number | null;
	/**
	 * What this pool has committed to paid members since `spentSince`, in cents: each member's price
	 * per run for every run its server accepted (or may have: an answer lost on the way). Counted
	 * here, never a charge the service confirmed.
	 */
	spentCents: number;
	/** When counting began: the pool's creation, or the person's last reset (epoch ms). */
	spentSince: number;
	createdAt: number;
	updatedAt: number;
}

export interface PoolInput {
	id?: string;
	name: string;
	members: PoolMember[];
	cloudThresholdMs: number;
	spendCapCents: number | null;
}

export interface PoolFieldErrors {
	name?: string;
	members?: string;
	cloudThresholdMs?: string;
	spendCapCents?: string;
	/** A paid member's price per run, by profile id (a Map: the ids come from storage). */
	prices?: ReadonlyMap<string, string>;
}

/** Why a member was not chosen for a run, in words a person can act on. */
export type SkipReason =
	'off' | 'unreachable' | 'missing-node' | 'missing-model' | 'paid-under-threshold' | 'no-price' | 'spend-cap' | 'not-pinned' | 'slower';

export interface SkippedMember {
	profileId: string;
	reason: SkipReason;
	message: string;
}

/** A model file the workflow names, sent under the member's own name for the same file. */
export interface ModelRename {
	nodeId: string;
	input: string;
	from: string;
	to: string;
}

export type MemberChoice =
	| { ok: true; profileId: string; expectedFinishMs: number; renames: ModelRename[]; skipped: SkippedMember[] }
	| { ok: false; message: string; skipped: SkippedMember[] };

/** Where a pool sent a run, kept on the run (its `profileId` is the member's). */
export type { RunPlacement } from '../../core/protocol/workflow-run';

/** A workflow run for a pool: as for one profile, less the profile, which the pool chooses. */
export type SubmitPoolRunInput = Omit<SubmitRunInput, 'profileId' | 'pool'> & {
	poolId: string;
	/** The member to send it to whatever the others' waits; null lets the pool choose. */
	pin: string | null;
	/** The profile whose form sent it (its input files are copied from there to the member); null when none. */
	sourceProfileId: string | null;
};

export type PoolRunError =
	| { kind: 'no-pool'; message: string }
	| { kind: 'no-member'; message: string; skipped: SkippedMember[] }
	| { kind: 'inputs'; message: string; profileId: string }
	| { kind: 'submit'; error: SubmitRunError; profileId: string };

/** One run in a member's lane: what runs there, or waits, and when it is expected to end. */
export interface LaneRun {
	/** The run here that follows the job; null for another client's job. */
	runId: string | null;
	title: string;
	/** Sent by this pool (only those can be moved). */
	inPool: boolean;
	/** Share of its nodes done, 0 to 1; null when not known. */
	progress: number | null;
	/** When it is expected to end (epoch ms), from the member's recent durations; null when not known. */
	expectedFinishAt: number | null;
}

/** One member's lane of the pool's queue view. */
export interface PoolLane {
	profileId: string;
	name: string;
	enabled: boolean;
	paid: boolean;
	/** Its queue was read now; false: not answering, and the runs shown are this pool's as last known here. */
	answering: boolean;
	/** Why it could not be read. */
	problem: string | null;
	/** It did not answer here (or was said gone) and answers again since then (epoch ms); null otherwise. */
	answersAgainSince: number | null;
	/** When its queue last answered here (epoch ms): the word on it while it does not answer; null when never. */
	lastReadAt: number | null;
	running: LaneRun[];
	waiting: LaneRun[];
}

export interface PoolQueueView {
	poolId: string;
	lanes: PoolLane[];
	readAt: number;
}

/** What saying a member is gone did: its waiting runs moved, those it was running ended (never sent again unasked). */
export interface GoneReport {
	/** It answered the queue read made first: its waiting runs were cancelled there (confirmed) before moving, the rest go on there. */
	answered: boolean;
	moved: number;
	/** Runs it was running: ended as lost, to run again by hand. */
	stopped: number;
	/** Waiting runs no other member could take: ended as lost, saying why. */
	stranded: number;
	/** It answered: runs it is running, or no longer lists (ended: read from its history), go on there. */
	left: number;
}

export type MoveError = { kind: 'not-moved'; message: string };

export interface PoolApi {
	listPools(input: Record<string, never>): Promise<Pool[]>;
	savePool(input: { pool: PoolInput }): Promise<Result<Pool, PoolFieldErrors>>;
	deletePool(input: { id: string }): Promise<void>;
	/** Chooses a member and sends the run to its own queue, as an ordinary run on that member's profile. */
	submitPoolRun(input: SubmitPoolRunInput): Promise<Result<WorkflowRun, PoolRunError>>;
	/** One lane per member: what runs there, what waits, progress and expected finish. */
	poolQueue(input: { poolId: string }): Promise<Result<PoolQueueView>>;
	/**
	 * Moves a waiting run of the pool to another member (`to`, or null for the pool's choice): cancelled
	 * there and confirmed by that server first, then sent here; never both at once.
	 */
	moveRun(input: { runId: string; to: string | null }): Promise<Result<WorkflowRun, MoveError>>;
	/**
	 * The person says a member is gone: it is switched off, its waiting runs go to the others, and the
	 * runs it was running end lost (sent again only when the person runs them again).
	 */
	memberGone(input: { poolId: string; profileId: string }): Promise<Result<GoneReport>>;
	/** Switches a member on again (one said gone that answers again, say): the pool sends it runs again. */
	switchMemberOn(input: { poolId: string; profileId: string }): Promise<Result<Pool>>;
	/** Starts counting what the pool commits to paid members again from 0 (the person asked, and confirmed). */
	resetSpend(input: { poolId: string }): Promise<Result<Pool>>;
}

export type PoolEvent = { type: 'pools'; pools: Pool[] };
