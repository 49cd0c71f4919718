/**
 * One backoff for everything that asks a workflow server (by origin), while it does not answer. Before,
 * each reader kept its own pace: the run tracker, the queue watch, the run page's queue position, the
 * socket and its auth check, the route probe, and each failure's two diagnosis probes; a local ComfyUI
 * that was down got 36 to 88 requests a minute. Now, once a request got no answer, reads are held
 * back (answered at once with that failure, nothing sent) until the retry time; then one cheap probe
 * (a `no-cors` GET of the origin, which resolves whenever the server is up) stands for all of them,
 * and only when it answers do the reads go out again. Requests the user asked for (a submit, a cancel:
 * anything but a GET) are always sent. Any HTTP answer opens the gate, and tells those waiting for it.
 */
import type { AppError } from '../protocol/errors';
import { DOWN_BACKOFF, equalJitterDelay, type BackoffPolicy } from '../rules/backoff';
import type { FetchLike } from './network-diagnosis';

/** Failures that mean the server gave no answer at all. */
const NO_ANSWER = new Set<AppError['kind']>(['network', 'local-network', 'timeout']);

export const isNoAnswer = (error: AppError): boolean => NO_ANSWER.has(error.kind);

export type Admission = { ok: true } | { ok: false; error: AppError };

export class ServerGate {
	private down: { failures: number; retryAt: number; error: AppError } | null = null;
	private probing: Promise<boolean> | null = null;
	private diagnosing: Promise<AppError> | null = null;
	private readonly listeners = new Set<() => void>();

	constructor(
		private readonly origin: string,
		private readonly fetchImpl: FetchLike,
		private readonly now: () => number = Date.now,
		private readonly random: () => number = Math.random,
		private readonly policy: BackoffPolicy = DOWN_BACKOFF
	) {}

	/** Whether the server is known not to answer. */
	isDown(): boolean {
		return this.down !== null;
	}

	/** When the next try is due while down (else undefined). */
	retryAt(): number | undefined {
		return this.down?.retryAt;
	}

	/**
	 * May a read go out now? Yes while the server answers. While it does not: no before the retry time;
	 * after it, one probe for all who ask (they wait for it), yes if the server answered it.
	 */
	async admit(): Promise<Admission> {
		const down = this.down;
		if (!down) return { ok: true };
		if (this.now() < down.retryAt && !this.probing) return { ok: false, error: this.heldBack(down) };
		this.probing ??= this.probe().finally(() => (this.probing = null));
		if (await this.probing) return { ok: true };
		return { ok: false, error: this.heldBack(this.down ?? down) };
	}

	/** The server answered (any HTTP status, or a CORS refusal, which is an answer the browser hid). */
	answered(): void {
		if (!this.down) return;
		this.down = null;
		for (const listener of [...this.listeners]) listener();
	}

	/** A request got no answer: wait before asking again, longer each time in a row. */
	failed(error: AppError): void {
		if (!isNoAnswer(error)) return;
		const failures = (this.down?.failures ?? 0) + 1;
		this.down = { failures, retryAt: this.now() + equalJitterDelay(failures - 1, this.policy, this.random()), error };
	}

	/** The page woke up or the network came back: the next read may try at once. */
	wake(): void {
		if (this.down) this.down = { ...this.down, retryAt: this.now() };
	}

	/** Calls `listener` each time the server answers again after not answering. */
	onAnswer(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * Why a request failed, found out once for all that fail together: while the server is known down,
	 * or another failure is being looked into, the answer is shared rather than probed again.
	 */
	async diagnose(run: () => Promise<AppError>): Promise<AppError> {
		if (this.down) return this.down.error;
		if (this.diagnosing) {
			const shared = await this.diagnosing;
			if (isNoAnswer(shared)) return shared;
		}
		const mine = run();
		this.diagnosing ??= mine.finally(() => (this.diagnosing = null));
		return mine;
	}

	private heldBack(down: { retryAt: number; error: AppError }): AppError {
		const seconds = Math.max(1, Math.ceil((down.retryAt - this.now()) / 1000));
		return { ...down.error, detail: `Not asked again yet: the next try is in about ${seconds} s.` };
	}

	/**
	 * One cheap request: a `no-cors` GET resolves (opaque) whenever the server is up, whatever its CORS
	 * headers. It must follow redirects: a `no-cors` fetch with any other redirect mode is a network error
	 * in browsers, sent nowhere (the Fetch standard), so such a probe would never find the server back.
	 */
	private async probe(): Promise<boolean> {
		try {
			await this.fetchImpl(`${this.origin}/`, {
				mode: 'no-cors',
				credentials: 'omit',
				cache: 'no-store',
				redirect: 'follow',
				signal: AbortSignal.timeout(5000)
			});
			this.answered();
			return true;
		} catch {
			const down = this.down;
			if (down) this.failed(down.error);
			return false;
		}
	}
}

/** The gates of the worker, one per origin, shared by every connection to it. */
export class ServerGates {
	private readonly gates = new Map<string, ServerGate>();

	constructor(private readonly fetchImpl: FetchLike) {}

	for(origin: string): ServerGate {
		let gate = this.gates.get(origin);
		if (!gate) this.gates.set(origin, (gate = new ServerGate(origin, this.fetchImpl)));
		return gate;
	}

	/** The page woke up: every server may be asked at once. */
	wakeAll(): void {
		for (const gate of this.gates.values()) gate.wake();
	}
}
