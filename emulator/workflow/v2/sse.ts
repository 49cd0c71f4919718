/**
 * Server-Sent Events for v2 jobs: one `SseStream` per connection, one `JobChannel` per job fanning
 * events out to its streams. Frames are `event: <name>\ndata: <compact JSON>\n\n`, never an `id:`
 * or `retry:` (live push only). Progress and previews are throttled per job to one each per
 * `THROTTLE_MS` (the newest wins); status, output and log go out at once.
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

export const THROTTLE_MS = 500;

/** Observes every frame written, with the time since its emission (the benchmark uses this). */
export type WriteObserver = (sinceEmitMs: number) => void;

export interface StreamOptions {
	/** `: keepalive` after this much silence (the proxy's 15 s); null: none. */
	keepaliveMs: number | null;
	/** Cut the connection after this many frames (fault); 0: never. */
	dropAfterFrames: number;
	onClose: () => void;
	observer?: WriteObserver | undefined;
	/** The job's terminal status event, if it has ended (a starved stream reports it at its keep-alive check). */
	terminal?: () => Record<string, unknown> | null;
}

export class SseStream {
	closed = false;
	private frames = 0;
	private cutting = false;
	private starved = false;
	private stalledUntil = 0;
	private readonly held: string[] = [];
	private keepalive: NodeJS.Timeout | undefined;

	constructor(
		private readonly res: ServerResponse,
		private readonly options: StreamOptions
	) {
		res.on('close', () => this.closed || this.finish());
		this.armKeepalive();
	}

	send(event: string, data: unknown, emittedAt = performance.now()): void {
		if (this.closed || this.cutting || this.starved) return;
		this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, emittedAt);
		this.frames++;
		if (this.options.dropAfterFrames > 0 && this.frames >= this.options.dropAfterFrames) {
			// Nothing more is written; the cut comes once the frames are on the wire.
			this.cutting = true;
			setTimeout(() => this.drop(), 50).unref();
		}
	}

	/**
	 * The ComfyUI socket behind this stream no longer gets the job's events (the proxy in front of
	 * ComfyUI 0.3.64: another stream of the job replaced it, or the one it replaced closed). Only
	 * keep-alives are written; at a keep-alive check the proxy reads the job, and once it has ended
	 * sends its terminal status and ends (so the end is seen up to one keep-alive late).
	 */
	starve(): void {
		this.starved = true;
	}

	get isStarved(): boolean {
		return this.starved;
	}

	/** No bytes at all for `ms` (fault); what is sent meanwhile is written afterwards. */
	stall(ms: number): void {
		this.stalledUntil = Math.max(this.stalledUntil, Date.now() + ms);
		clearTimeout(this.keepalive);
		setTimeout(() => this.flushHeld(), ms).unref();
	}

	/** Ends the response cleanly (after the terminal status). */
	end(): void {
		if (this.closed || this.cutting || this.starved) return;
		if (this.held.length > 0) {
			// A stalled stream ends once its held frames are out.
			setTimeout(() => this.end(), Math.max(1, this.stalledUntil - Date.now())).unref();
			return;
		}
		this.finish();
		this.res.end();
	}

	/** Cuts the connection mid-stream (fault): the client sees the body end without a terminal status. */
	drop(): void {
		if (this.closed) return;
		this.finish();
		this.res.destroy();
	}

	private write(text: string, emittedAt: number): void {
		if (Date.now() < this.stalledUntil) {
			this.held.push(text);
			return;
		}
		this.res.write(text);
		this.options.observer?.(performance.now() - emittedAt);
		this.armKeepalive();
	}

	private flushHeld(): void {
		if (this.closed || Date.now() < this.stalledUntil) return;
		for (const text of this.held.splice(0)) this.res.write(text);
		this.armKeepalive();
	}

	private armKeepalive(): void {
		clearTimeout(this.keepalive);
		const ms = this.options.keepaliveMs;
		if (ms === null || this.closed) return;
		this.keepalive = setTimeout(() => {
			if (this.closed || Date.now() < this.stalledUntil) return;
			this.res.write(': keepalive\n\n');
			const terminal = this.starved ? this.options.terminal?.() : null;
			if (terminal) {
				this.res.write(`event: status\ndata: ${JSON.stringify(terminal)}\n\n`);
				this.finish();
				this.res.end();
				return;
			}
			this.armKeepalive();
		}, ms);
		this.keepalive.unref();
	}

	private finish(): void {
		this.closed = true;
		clearTimeout(this.keepalive);
		this.options.onClose();
	}
}

/** Keeps the newest value and sends at most one per THROTTLE_MS, the last one trailing. */
class Throttle<T> {
	private lastSent = -Infinity;
	private pending: T | undefined;
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly send: (value: T) => void) {}

	push(value: T): void {
		const now = performance.now();
		if (now - this.lastSent >= THROTTLE_MS && this.timer === undefined) return this.fire(value, now);
		this.pending = value;
		this.timer ??= setTimeout(
			() => {
				this.timer = undefined;
				const v = this.pending;
				this.pending = undefined;
				if (v !== undefined) this.fire(v, performance.now());
			},
			THROTTLE_MS - (now - this.lastSent)
		);
	}

	/** Sends what is pending now (before the terminal status). */
	flush(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		const v = this.pending;
		this.pending = undefined;
		if (v !== undefined) this.fire(v, performance.now());
	}

	private fire(value: T, now: number): void {
		this.lastSent = now;
		this.send(value);
	}
}

export class JobChannel {
	readonly streams = new Set<SseStream>();
	readonly progress: Throttle<unknown>;
	readonly preview: Throttle<unknown>;

	constructor() {
		this.progress = new Throttle((p) => this.broadcast('progress', p));
		this.preview = new Throttle((p) => this.broadcast('preview', p));
	}

	broadcast(event: string, data: unknown): void {
		const emittedAt = performance.now();
		for (const s of this.streams) s.send(event, data, emittedAt);
	}

	/** Sends the pending progress and preview now (before a terminal status). */
	flush(): void {
		this.progress.flush();
		this.preview.flush();
	}

	/** The terminal status was sent: end every stream. */
	endAll(): void {
		for (const s of [...this.streams]) s.end();
	}
}
