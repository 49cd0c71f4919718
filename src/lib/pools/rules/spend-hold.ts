/**
 * The price a pool counted for one run on a paid member (its "hold"), kept per run so that what
 * the run turns out to be can give it back: once the app knows for certain that the member's server
 * never took the run, or that it confirmed the cancel of the run before it started (a move). Any
 * other end keeps the price counted: a run that may have reached the server may be charged. Pure.
 */
import { neverAccepted, type WorkflowRun } from '../../core/protocol/workflow-run';
import { isUnderWay } from '../../core/rules/run-under-way';

export interface SpendHold {
	poolId: string;
	/** The paid member the run was sent to. */
	profileId: string;
	cents: number;
	/** When counting began as the price was counted: a reset since then has already forgotten it. */
	since: number;
}

/** A hold as stored: `claimed` once one tab (or call) has taken it to give its price back, so no other does. */
export interface StoredHold extends SpendHold {
	claimed: boolean;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A stored hold read back (another version's, or damaged): what it says, or null to read as none (its price stays counted). */
export function parseStoredHold(value: unknown): StoredHold | null {
	if (typeof value !== 'object' || value === null) return null;
	const { poolId, profileId, cents, since, claimed } = value as Record<string, unknown>;
	if (typeof poolId !== 'string' || typeof profileId !== 'string' || typeof claimed !== 'boolean') return null;
	if (!finite(cents) || cents <= 0 || !Number.isInteger(cents) || !finite(since)) return null;
	return { poolId, profileId, cents, since, claimed };
}

/** What a run's state does to the price it holds: nothing yet (not ended), given back (and why), or kept counted. */
export type HoldAtEnd = 'open' | 'give-back: never accepted' | 'give-back: moved before it started' | 'keep';

export function holdAtEnd(run: Pick<WorkflowRun, 'status' | 'error' | 'queuedAt' | 'startedAt' | 'movedTo'>): HoldAtEnd {
	if (isUnderWay(run.status)) return 'open';
	if (neverAccepted(run)) return 'give-back: never accepted';
	// Only a move ends a run `cancelled` with where it went: its server confirmed the cancel of a job that had not started.
	if (run.status === 'cancelled' && run.movedTo && run.startedAt === undefined) return 'give-back: moved before it started';
	return 'keep';
}
