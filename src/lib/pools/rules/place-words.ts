/** A pool's run in words: where it went and why the others did not get it. Pure. */
import type { RunPlacement } from '../../core/protocol/workflow-run';

export function placeWords(placement: RunPlacement, memberName: string, nameOf?: (profileId: string) => string): string {
	const sent = sentWords(placement, memberName);
	const from = placement.movedFrom;
	return from && nameOf ? `${sent}, moved from ${nameOf(from.profileId)} (${from.why})` : sent;
}

/** Where the pool sent it, without where it came from. */
export function sentWords(placement: RunPlacement, memberName: string): string {
	return placement.pinned ? `Pinned to ${memberName} in pool ${placement.poolName}` : `Sent to ${memberName} by pool ${placement.poolName}`;
}

/** A refusal's message with each member's reason, for a pool that could not take a run. */
export function noMemberWords(message: string, skipped: ReadonlyArray<{ message: string }>): string {
	return skipped.length === 0 ? message : `${message} ${skipped.map((s) => s.message).join(' ')}`;
}
