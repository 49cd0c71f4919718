/**
 * Servers that did not answer the last read, by profile: how often in a row, and when to read again.
 * One read stands for all of a profile's runs until the server answers, at the socket's pace (a local
 * ComfyUI that was down had every open run's history and queue read every 2 s).
 */
import { DOWN_BACKOFF, equalJitterDelay, type BackoffPolicy } from '../../core/rules/backoff';

export class Unanswered {
	private readonly down = new Map<string, { failures: number; retryAt: number }>();

	constructor(
		private readonly policy: BackoffPolicy = DOWN_BACKOFF,
		private readonly random: () => number = Math.random
	) {}

	/**
	 * The profile's server did not answer: wait before reading it again, longer each time in a row, and
	 * never less than half the step, as the server's shared gate does (with full jitter, unlucky draws
	 * read a dead server at every tick).
	 */
	failed(profileId: string, now: number): void {
		const failures = (this.down.get(profileId)?.failures ?? 0) + 1;
		this.down.set(profileId, { failures, retryAt: now + equalJitterDelay(failures - 1, this.policy, this.random()) });
	}

	answered(profileId: string): void {
		this.down.delete(profileId);
	}

	/** Whether the profile's server is still waited out (no read before its retry time). */
	waiting(profileId: string, now: number): boolean {
		const down = this.down.get(profileId);
		return down !== undefined && now < down.retryAt;
	}
}
