/**
 * Events for prompt ids no run here knows yet: a job can start before its submit answer arrives.
 * They wait for a submit of ours to claim them; one nobody claims in time was started elsewhere.
 */
import type { ServerEvent } from '../protocol/workflow-events';

/** How long an unknown job's events wait for a submit of ours to claim it before it is adopted. */
const ADOPT_AFTER_MS = 1500;

export interface OrphanEvent {
	at: number;
	profileId: string;
	event: ServerEvent;
}

export class OrphanEvents {
	private orphans: OrphanEvent[] = [];
	private readonly adoptScheduled = new Set<string>();

	constructor(
		private readonly now: () => number,
		/** Called when a job's events stayed unclaimed for `ADOPT_AFTER_MS`. */
		private readonly unclaimed: (profileId: string, promptId: string) => void
	) {}

	keep(profileId: string, event: ServerEvent): void {
		const t = this.now();
		this.orphans = this.orphans.filter((o) => t - o.at < 10_000).slice(-500);
		this.orphans.push({ at: t, profileId, event });
		// Every connection of a user hears every job: one nobody here claims was started elsewhere.
		const promptId = 'promptId' in event ? event.promptId : undefined;
		if (
			promptId &&
			!this.adoptScheduled.has(promptId) &&
			event.type !== 'execution_success' &&
			event.type !== 'execution_error' &&
			event.type !== 'execution_interrupted'
		) {
			this.adoptScheduled.add(promptId);
			setTimeout(() => {
				this.adoptScheduled.delete(promptId);
				if (this.orphans.some((o) => isOf(o, promptId))) this.unclaimed(profileId, promptId);
			}, ADOPT_AFTER_MS);
		}
	}

	/** Takes the events kept for a prompt id, oldest first, now that a run claims it. */
	claim(promptId: string): OrphanEvent[] {
		const early = this.orphans.filter((o) => isOf(o, promptId));
		if (early.length > 0) this.orphans = this.orphans.filter((o) => !early.includes(o));
		return early;
	}
}

function isOf(orphan: OrphanEvent, promptId: string): boolean {
	return 'promptId' in orphan.event && orphan.event.promptId === promptId;
}
