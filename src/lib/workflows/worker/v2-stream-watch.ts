/**
 * The live side of v2 jobs: one event stream per job per browser (this runs only in the leader
 * tab's worker; the real proxy serves one stream per job, a second starves the first). Polling stays
 * the truth (the tracker reads `GET urls.self` every few seconds); the stream only adds progress,
 * previews and early outputs. A stream is read to its end, reconnected with backoff and jitter after
 * a drop or a stall (no bytes, keep-alives included, for `STALL_MS`), and left to polling for the
 * wait the server asks when it refuses (429).
 */
import { backoffDelay, type BackoffPolicy } from '../../core/rules/backoff';
import type { V2StreamEvent } from '../protocol/v2-events';
import { serverEventsOf } from '../rules/v2-job-mapping';
import type { ServerEvent } from '../protocol/workflow-events';
import type { JobHandle } from './surfaces/surface';
import type { JobStreamSurface } from './surfaces/surface';

/** The proxy sends a keep-alive every 15 s of silence: three missed means the stream is dead. */
export const STALL_MS = 45_000;
/**
 * A stream of a running job with keep-alives but no event this long is starved: on the real proxy in
 * front of ComfyUI 0.3.64 a second socket of the same job replaces the first, and when the first
 * closes ComfyUI unregisters the second too. Polling stays on; the stream is closed and reopened.
 */
export const QUIET_MS = 40_000;
/** How long a closed stream takes to be gone on the proxy (it notices at its next 15 s keep-alive write). */
export const GONE_AFTER_MS = 16_000;
export const STREAM_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 15_000 };

export interface StreamHooks {
	events(profileId: string, events: ServerEvent[]): void;
	preview(jobId: string, nodeId: string, mime: string, bytes: ArrayBuffer): void;
	/** The stream ended (after the terminal status): time to read the job's truth. */
	ended(jobId: string): void;
	/** Whether polling says the job is running now (a quiet stream of a waiting job is normal). */
	running?(jobId: string): boolean;
}

export interface StreamTimes {
	stallMs: number;
	quietMs: number;
	goneAfterMs: number;
}

function decodeBase64(data: string): ArrayBuffer {
	const text = atob(data);
	const bytes = new Uint8Array(text.length);
	for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
	return bytes.buffer;
}

export class V2StreamWatch {
	private readonly watching = new Map<string, AbortController>();
	/** Jobs whose stream ended after their terminal status: reopening one only replays that status. */
	private readonly ended = new Set<string>();

	private readonly times: StreamTimes;

	constructor(
		private readonly hooks: StreamHooks,
		times: Partial<StreamTimes> | number = {}
	) {
		const given = typeof times === 'number' ? { stallMs: times } : times;
		this.times = { stallMs: STALL_MS, quietMs: QUIET_MS, goneAfterMs: GONE_AFTER_MS, ...given };
	}

	isWatching(jobId: string): boolean {
		return this.watching.has(jobId);
	}

	/**
	 * Follows the job's stream. `reattached`: a job this worker found running (after a reload): the
	 * page before may have had a stream of it, which the proxy drops only at its next keep-alive; a
	 * stream opened before that would be starved, so it opens once the old one is gone.
	 */
	watch(surface: JobStreamSurface, job: JobHandle, reattached = false): void {
		if (this.watching.has(job.promptId) || this.ended.has(job.promptId)) return;
		const stop = new AbortController();
		this.watching.set(job.promptId, stop);
		const start = reattached ? this.pause(this.times.goneAfterMs, stop.signal) : Promise.resolve();
		void start
			.then(() => this.follow(surface, job, stop.signal))
			.finally(() => {
				if (this.watching.get(job.promptId) === stop) this.watching.delete(job.promptId);
			});
	}

	stop(jobId: string): void {
		this.watching.get(jobId)?.abort();
		this.watching.delete(jobId);
	}

	private async follow(surface: JobStreamSurface, job: JobHandle, stop: AbortSignal): Promise<void> {
		// An output's place among its node's outputs (its label when it has no name); outputs are not resent on reconnect.
		const outputsByNode = new Map<string, number>();
		let lastEvent = Date.now();
		const onEvent = (event: V2StreamEvent) => {
			lastEvent = Date.now();
			if (event.kind === 'preview') {
				const bytes = decodeBase64(event.preview.data_base64);
				this.hooks.preview(job.promptId, event.preview.node_id, event.preview.content_type, bytes);
				return;
			}
			if (event.kind === 'output') {
				const o = event.output;
				const index = outputsByNode.get(o.node_id) ?? 0;
				outputsByNode.set(o.node_id, index + 1);
				// A text output shows its content: read it first (a failed read leaves it a download).
				const text = o.type === 'text' ? surface.textOf(o, stop) : Promise.resolve(undefined);
				void text.then((content) => {
					if (!stop.aborted) this.hooks.events(surface.profileId, serverEventsOf(job.promptId, event, index, content));
				});
				return;
			}
			const events = serverEventsOf(job.promptId, event);
			if (events.length) this.hooks.events(surface.profileId, events);
		};
		for (let attempt = 0; !stop.aborted;) {
			const connection = new AbortController();
			const onStop = () => connection.abort();
			stop.addEventListener('abort', onStop, { once: true });
			let stall: ReturnType<typeof setTimeout> | undefined;
			let sawBytes = false;
			const onActivity = () => {
				sawBytes = true;
				clearTimeout(stall);
				stall = setTimeout(() => connection.abort(), this.times.stallMs);
			};
			stall = setTimeout(() => connection.abort(), this.times.stallMs);
			// Starved: keep-alives, but no event for `quietMs` while polling says the job runs.
			lastEvent = Date.now();
			let starved = false;
			const quiet = setInterval(
				() => {
					if (Date.now() - lastEvent < this.times.quietMs || !this.hooks.running?.(job.promptId)) return;
					starved = true;
					connection.abort();
				},
				Math.max(50, this.times.quietMs / 4)
			);
			const result = await surface.stream(job, onEvent, onActivity, connection.signal);
			clearTimeout(stall);
			clearInterval(quiet);
			stop.removeEventListener('abort', onStop);
			if (stop.aborted) return;
			if (starved) {
				// Reopened once the starved one is gone on the proxy; polling carries the job meanwhile.
				attempt = 0;
				await this.pause(this.times.goneAfterMs, stop);
				continue;
			}
			if (result.kind === 'ended') {
				this.ended.add(job.promptId);
				this.hooks.ended(job.promptId);
				return;
			}
			if (result.kind === 'gone') return;
			// A stream that delivered bytes was healthy: start the backoff afresh after it drops.
			attempt = sawBytes ? 0 : attempt + 1;
			const wait =
				result.kind === 'refused'
					? (result.retryAfterMs ?? backoffDelay(attempt, STREAM_BACKOFF, Math.random()))
					: backoffDelay(attempt, STREAM_BACKOFF, Math.random());
			await this.pause(wait, stop);
		}
	}

	/** A wait that ends early when the watch stops. */
	private pause(ms: number, stop: AbortSignal): Promise<void> {
		return new Promise<void>((resolve) => {
			const t = setTimeout(resolve, ms);
			stop.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
		});
	}
}
