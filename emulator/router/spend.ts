/**
 * Money committed to in-flight calls, per scope, in USD cents: the spend ceiling behind 429 and the
 * `X-Committed-Spend-*` headers. The committed amount of a call is its internal price, so the
 * headers never name a model's price on their own: they are read after the call's own release.
 */
export interface SpendHeaders {
	'X-Committed-Spend-Limit': string;
	'X-Committed-Spend-Current': string;
	'X-Committed-Spend-Remaining': string;
}

export class SpendLedger {
	private readonly committed = new Map<string, number>();
	private readonly inFlight = new Map<string, number>();

	current(scope: string): number {
		return this.committed.get(scope) ?? 0;
	}

	calls(scope: string): number {
		return this.inFlight.get(scope) ?? 0;
	}

	wouldExceed(scope: string, cents: number, limit: number): boolean {
		return this.current(scope) + cents > limit;
	}

	commit(scope: string, cents: number): () => void {
		this.committed.set(scope, this.current(scope) + cents);
		this.inFlight.set(scope, this.calls(scope) + 1);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.committed.set(scope, Math.max(0, this.current(scope) - cents));
			this.inFlight.set(scope, Math.max(0, this.calls(scope) - 1));
		};
	}

	headers(scope: string, limit: number): SpendHeaders {
		const current = this.current(scope);
		return {
			'X-Committed-Spend-Limit': String(limit),
			'X-Committed-Spend-Current': String(current),
			'X-Committed-Spend-Remaining': String(Math.max(0, limit - current))
		};
	}

	clear(): void {
		this.committed.clear();
		this.inFlight.clear();
	}
}
