/**
 * The limits a person sets on one sweep: more runs, or more expected spend, than this asks first.
 * Spend is only ever what past runs reported; a spend limit with nothing known to compare asks too.
 */
export interface SweepLimits {
	/** Ask before a sweep of more runs than this; null: never. */
	runs: number | null;
	/** Ask before a sweep expected to use more credits than this; null: never. */
	credits: number | null;
}

export const DEFAULT_LIMITS: SweepLimits = { runs: 100, credits: null };

/** Why this sweep must be confirmed first, or null when it is within the limits. */
export function overLimit(sweep: { count: number; credits: number | null; paid: boolean }, limits: SweepLimits): string | null {
	if (limits.runs !== null && sweep.count > limits.runs)
		return `${sweep.count} runs is more than your limit of ${limits.runs} runs for one sweep.`;
	if (limits.credits !== null && sweep.paid) {
		if (sweep.credits === null) return `Its spend is not known, and you set a limit of ${limits.credits} credits for one sweep.`;
		if (sweep.credits > limits.credits)
			return `It is expected to use about ${sweep.credits} credits, more than your limit of ${limits.credits}.`;
	}
	return null;
}

/** The limits as saved, or the defaults when nothing readable is saved. */
export function readLimits(saved: string | null): SweepLimits {
	if (!saved) return DEFAULT_LIMITS;
	try {
		const value = JSON.parse(saved) as Partial<SweepLimits>;
		const limit = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);
		return { runs: limit(value.runs), credits: limit(value.credits) };
	} catch {
		return DEFAULT_LIMITS;
	}
}
