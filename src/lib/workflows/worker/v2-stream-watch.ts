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
export const STREAM_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 15_000 };

export interface StreamHooks {
	events(profileId: string, events: ServerEvent[]): void;
	preview(jobId: string, nodeId: string, mime: string, bytes: ArrayBuffer): void;
	/** The stream ended (after the terminal status): time to read the job's truth. */
	ended(jobId: string): void;
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

	constructor(
		private readonly hooks: StreamHooks,
		private readonly stallMs = STALL_MS
	) {}

	isWatching(jobId: string): boolean {
		return this.watching.has(jobId);
	}

	watch(surface: JobStreamSurface, job: JobHandle): void {
		if (this.watching.has(job.promptId) || this.ended.has(job.promptId)) return;
		const stop = new AbortController();
		this.watching.set(job.promptId, stop);
		void this.follow(surface, job, stop.signal).finally(() => {
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
		const onEvent = (event: V2StreamEvent) => {
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
				stall = setTimeout(() => connection.abort(), this.stallMs);
			};
			stall = setTimeout(() => connection.abort(), this.stallMs);
			const result = await surface.stream(job, onEvent, onActivity, connection.signal);
			clearTimeout(stall);
			stop.removeEventListener('abort', onStop);
			if (stop.aborted) return;
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
			await new Promise<void>((resolve) => {
				const t = setTimeout(resolve, wait);
				stop.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
			});
		}
	}
}
