/**
 * Queued requests: admitted per scope up to the queue concurrency and within the spend ceiling,
 * run by the same provider dispatch as synchronous calls, kept for the retention period after they
 * complete. Statuses: `IN_QUEUE` and `IN_PROGRESS` (the two unfinished values, fal's names) and
 * `COMPLETED`, the only terminal one.
 */
import type { CatalogModel } from './catalog';
import type { RouterContext } from './context';
import { countDispatch, errorResponse, runProvider, type StoredResponse } from './dispatch';

export const QUEUE_STATUS = { queued: 'IN_QUEUE', running: 'IN_PROGRESS', completed: 'COMPLETED' } as const;
export type QueueStatus = (typeof QUEUE_STATUS)[keyof typeof QUEUE_STATUS];

export interface QueuedRequest {
	id: string;
	scope: string;
	model: CatalogModel;
	input: Record<string, unknown>;
	/** Key of `state.counters.dispatches/charges` for this request. */
	counter: string;
	submittedAt: number;
	status: QueueStatus;
	cancelRequested: boolean;
	/** Set by an operator cancel: the run's result, if it comes, is not kept. */
	discardResult?: boolean;
	completedAt?: number;
	/** Present on a COMPLETED request that did not succeed. */
	errorType?: string;
	/** The provider's answer (output or error), when the request reached the provider. */
	response?: StoredResponse;
}

export type Lookup = { kind: 'live'; request: QueuedRequest } | { kind: 'expired' } | { kind: 'missing' };

export class RequestQueue {
	private readonly requests = new Map<string, QueuedRequest>();
	/** Ids of requests past retention: reads answer 410 rather than 404. */
	private readonly expired = new Map<string, { scope: string; modelId: string }>();

	constructor(private readonly ctx: RouterContext) {
		ctx.router.onReset(() => {
			this.requests.clear();
			this.expired.clear();
		});
		ctx.router.onSettingsChanged(() => this.pump());
	}

	submit(request: QueuedRequest): void {
		this.requests.set(request.id, request);
		this.pump();
	}

	find(id: string, scope: string, modelId: string): Lookup {
		this.sweep();
		const request = this.requests.get(id);
		if (request && request.scope === scope && request.model.id === modelId) return { kind: 'live', request };
		const gone = this.expired.get(id);
		if (gone && gone.scope === scope && gone.modelId === modelId) return { kind: 'expired' };
		return { kind: 'missing' };
	}

	/** Requests of the same scope still waiting ahead of this one; 0 is the front. */
	position(request: QueuedRequest): number {
		let ahead = 0;
		// The map keeps submission order.
		for (const other of this.requests.values()) {
			if (other === request) break;
			if (other.scope === request.scope && other.status === QUEUE_STATUS.queued) ahead++;
		}
		return ahead;
	}

	/**
	 * A cancel ask: takes effect at once while queued; a run at the provider completes and is charged
	 * (a run held there is let go, so the ask is answered as it would be without the hold).
	 */
	cancel(request: QueuedRequest): 'requested' | 'already-completed' {
		if (request.status === QUEUE_STATUS.completed) return 'already-completed';
		request.cancelRequested = true;
		if (request.status === QUEUE_STATUS.queued) this.complete(request, 'cancelled');
		else this.ctx.router.providerHold.releaseRun(request.id);
		return 'requested';
	}

	/**
	 * An operator withdraws a request: it ends `COMPLETED` with `cancelled` at once, even mid-run. A
	 * run already at the provider still finishes and is charged, but its result is discarded.
	 */
	operatorCancel(id: string): QueuedRequest | undefined {
		const request = this.requests.get(id);
		if (!request || request.status === QUEUE_STATUS.completed) return undefined;
		request.cancelRequested = true;
		request.discardResult = true;
		this.complete(request, 'cancelled');
		this.ctx.router.providerHold.releaseRun(request.id);
		return request;
	}

	private complete(request: QueuedRequest, errorType: string | undefined, response?: StoredResponse): void {
		request.status = QUEUE_STATUS.completed;
		request.completedAt = this.ctx.state.now();
		request.response = response;
		if (errorType !== undefined) request.errorType = errorType;
	}

	/** Queue timeouts and retention, by emulator time. */
	sweep(): void {
		const now = this.ctx.state.now();
		const { queueTimeoutMs, retentionMs } = this.ctx.router.settings;
		for (const request of this.requests.values()) {
			if (request.status === QUEUE_STATUS.queued && now - request.submittedAt >= queueTimeoutMs) this.complete(request, 'queue_timeout');
			if (request.status === QUEUE_STATUS.completed && now - (request.completedAt ?? now) >= retentionMs) {
				this.requests.delete(request.id);
				this.expired.set(request.id, { scope: request.scope, modelId: request.model.id });
			}
		}
	}

	/** Admits waiting requests, oldest first per scope, while there is room and spend headroom. */
	pump(): void {
		this.sweep();
		const { settings, spend } = this.ctx.router;
		if (settings.queuePaused) return;
		const running = new Map<string, number>();
		for (const r of this.requests.values()) if (r.status === QUEUE_STATUS.running) running.set(r.scope, (running.get(r.scope) ?? 0) + 1);
		const blocked = new Set<string>();
		for (const request of this.requests.values()) {
			if (request.status !== QUEUE_STATUS.queued || blocked.has(request.scope)) continue;
			const inScope = running.get(request.scope) ?? 0;
			if (inScope >= settings.queueConcurrency || spend.wouldExceed(request.scope, request.model.priceCents, settings.spendLimitCents)) {
				blocked.add(request.scope);
				continue;
			}
			running.set(request.scope, inScope + 1);
			this.start(request);
		}
	}

	private start(request: QueuedRequest): void {
		request.status = QUEUE_STATUS.running;
		const release = this.ctx.router.spend.commit(request.scope, request.model.priceCents);
		countDispatch(this.ctx, request.counter);
		void runProvider(this.ctx, request.model, request.input, request.counter, request.id)
			.catch(() => errorResponse(500, 'internal_error', 'The router failed while reading the provider result.'))
			.then((response) => {
				release();
				if (request.discardResult) {
					this.pump();
					return;
				}
				const failed = response.status !== 200;
				// A late cancel: the run reached the provider, so its result (and charge) stand.
				const errorType = request.cancelRequested ? 'cancelled' : failed ? (response.errorType ?? 'internal_error') : undefined;
				this.complete(request, errorType, response);
				this.pump();
			});
	}
}
