import { afterEach, describe, expect, it, vi } from 'vitest';
import { appError } from '../../core/protocol/errors';
import type { V2StreamEvent } from '../protocol/v2-events';
import type { ServerEvent } from '../protocol/workflow-events';
import type { V2Surface } from './surfaces/v2-surface';
import { V2StreamWatch } from './v2-stream-watch';

type Outcome = Awaited<ReturnType<V2Surface['stream']>>;

/** A surface whose successive streams deliver the given events, then end as told. */
function fakeSurface(streams: Array<{ events: V2StreamEvent[]; end: Outcome }>, opened: { count: number }) {
	return {
		profileId: 'p1',
		async stream(_job: unknown, onEvent: (e: V2StreamEvent) => void, onActivity: () => void): Promise<Outcome> {
			const next = streams[opened.count++] ?? { events: [], end: { kind: 'gone' } };
			for (const e of next.events) {
				onActivity();
				onEvent(e);
			}
			return next.end;
		}
	} as unknown as V2Surface;
}

describe('V2StreamWatch', () => {
	it('reconnects after drops, re-syncs from each snapshot, and reports the end once', async () => {
		const heard: ServerEvent[] = [];
		const ended: string[] = [];
		const opened = { count: 0 };
		const running: V2StreamEvent = { kind: 'status', event: { status: 'running' } };
		const progress = (step: number): V2StreamEvent => ({
			kind: 'progress',
			progress: { value: step / 10, nodes_done: 0, nodes_total: 1, current_node: '3', step, steps: 10 }
		});
		const drop: Outcome = { kind: 'error', error: appError('network', 'dropped') };
		const surface = fakeSurface(
			[
				{ events: [running, progress(2)], end: drop },
				{ events: [running, progress(5)], end: drop },
				{ events: [running, progress(9), { kind: 'status', event: { status: 'succeeded' } }], end: { kind: 'ended' } }
			],
			opened
		);
		const watch = new V2StreamWatch({ events: (_p, e) => heard.push(...e), preview: () => {}, ended: (id) => ended.push(id) });
		watch.watch(surface, { promptId: 'j1' });
		watch.watch(surface, { promptId: 'j1' }); // one stream per job
		await expect.poll(() => ended, { timeout: 5000 }).toEqual(['j1']);
		expect(opened.count).toBe(3);
		const steps = heard.flatMap((e) => (e.type === 'progress' ? [e.value] : []));
		expect(steps).toEqual([2, 5, 9]);
		expect(watch.isWatching('j1')).toBe(false);
		// The poll that the end triggers asks again: an ended stream is not opened again (it would only replay the end).
		watch.watch(surface, { promptId: 'j1' });
		expect(opened.count).toBe(3);
	});

	it('a streamed text output is read first and handed over as named text; unnamed outputs count per node', async () => {
		const heard: ServerEvent[] = [];
		const output = (id: string, type: 'text' | 'image', name: string): V2StreamEvent => ({
			kind: 'output',
			output: { node_id: '7', name, type, content_type: '', size_bytes: 0, id, hash: null, url: '', url_expires_at: '' }
		});
		const read: string[] = [];
		const surface = Object.assign(
			fakeSurface(
				[{ events: [output('t1', 'text', 'caption'), output('i1', 'image', ''), output('i2', 'image', '')], end: { kind: 'ended' } }],
				{
					count: 0
				}
			),
			{ textOf: async (o: { id: string }) => (read.push(o.id), 'a red fox') }
		);
		const watch = new V2StreamWatch({ events: (_p, e) => heard.push(...e), preview: () => {}, ended: () => {} });
		watch.watch(surface, { promptId: 'j1' });
		await expect.poll(() => heard.length, { timeout: 5000 }).toBe(3);
		expect(read).toEqual(['t1']);
		const outputs = heard.flatMap((e) => (e.type === 'executed' ? [e.output] : []));
		expect(outputs.flatMap((o) => o.other['text'] ?? [])).toEqual(['a red fox']);
		expect(outputs.flatMap((o) => o.other['textNames'] ?? [])).toEqual(['caption']);
		expect(outputs.flatMap((o) => o.images.map((r) => r.label))).toEqual(['Node 7 #2', 'Node 7 #3']);
	});

	it('hands previews over as decoded bytes', async () => {
		const previews: number[] = [];
		const surface = fakeSurface(
			[
				{
					events: [{ kind: 'preview', preview: { node_id: '3', content_type: 'image/jpeg', data_base64: btoa('\xff\xd8\xff') } }],
					end: { kind: 'ended' }
				}
			],
			{ count: 0 }
		);
		const watch = new V2StreamWatch({
			events: () => {},
			preview: (_j, _n, _m, bytes) => previews.push(...new Uint8Array(bytes)),
			ended: () => {}
		});
		watch.watch(surface, { promptId: 'j2' });
		await expect.poll(() => previews).toEqual([0xff, 0xd8, 0xff]);
	});

	describe('when the stream is refused or goes quiet', () => {
		afterEach(() => {
			vi.useRealTimers();
		});

		/** A surface whose streams stay open until aborted; `tick` sends a keep-alive (activity, no event) on the open one. */
		function silentSurface(first: Outcome | null) {
			let keepAlive: (() => void) | undefined;
			const opened = { count: 0 };
			const surface = {
				profileId: 'p1',
				stream(_job: unknown, _onEvent: unknown, onActivity: () => void, signal: AbortSignal): Promise<Outcome> {
					opened.count++;
					if (opened.count === 1 && first) return Promise.resolve(first);
					keepAlive = onActivity;
					return new Promise((resolve) =>
						signal.addEventListener('abort', () => resolve({ kind: 'error', error: appError('aborted', 'stopped') }), { once: true })
					);
				}
			} as unknown as V2Surface;
			return { surface, opened, tick: () => keepAlive?.() };
		}

		it('a refused stream (429 too_many_streams) is not opened again before its Retry-After: polling carries the job meanwhile', async () => {
			vi.useFakeTimers();
			const { surface, opened } = silentSurface({ kind: 'refused', retryAfterMs: 5000 } as Outcome);
			const watch = new V2StreamWatch({ events: () => {}, preview: () => {}, ended: () => {} });
			watch.watch(surface, { promptId: 'j3' });
			await vi.advanceTimersByTimeAsync(4_900);
			expect(opened.count).toBe(1);
			await vi.advanceTimersByTimeAsync(200);
			expect(opened.count).toBe(2);
			watch.stop('j3');
		});

		it('a stream with no bytes for the stall time is dropped and opened again; keep-alives count as bytes', async () => {
			vi.useFakeTimers();
			const { surface, opened, tick } = silentSurface(null);
			const watch = new V2StreamWatch({ events: () => {}, preview: () => {}, ended: () => {} }, 1000);
			watch.watch(surface, { promptId: 'j4' });
			// Keep-alives every 600 ms keep it open well past the stall time.
			for (let i = 0; i < 5; i++) {
				await vi.advanceTimersByTimeAsync(600);
				tick();
			}
			expect(opened.count).toBe(1);
			// Then silence: dropped after 1000 ms, reopened after its backoff (full jitter, at most 500 ms after a stream that had bytes).
			await vi.advanceTimersByTimeAsync(999);
			expect(opened.count).toBe(1);
			await vi.advanceTimersByTimeAsync(601);
			expect(opened.count).toBe(2);
			watch.stop('j4');
			expect(watch.isWatching('j4')).toBe(false);
		});

		it('a running job’s stream with keep-alives but no event is starved: closed, and reopened once the proxy has let the old one go', async () => {
			vi.useFakeTimers();
			const { surface, opened, tick } = silentSurface(null);
			let running = false;
			const watch = new V2StreamWatch(
				{ events: () => {}, preview: () => {}, ended: () => {}, running: () => running },
				{ stallMs: 100_000, quietMs: 1000, goneAfterMs: 5000 }
			);
			watch.watch(surface, { promptId: 'j5' });
			// Waiting in the queue, the proxy's stream says nothing after its first status: that is not starved.
			for (let i = 0; i < 6; i++) {
				await vi.advanceTimersByTimeAsync(500);
				tick();
			}
			expect(opened.count).toBe(1);
			// Running, and no event for over `quietMs`: starved at the next check.
			running = true;
			await vi.advanceTimersByTimeAsync(500);
			// Closed; not reopened before the old one is gone on the proxy (polling carries the job meanwhile).
			await vi.advanceTimersByTimeAsync(4000);
			expect(opened.count).toBe(1);
			await vi.advanceTimersByTimeAsync(1500);
			expect(opened.count).toBe(2);
			watch.stop('j5');
		});

		it('a job found running after a reload gets its stream once the page before’s stream is gone', async () => {
			vi.useFakeTimers();
			const { surface, opened } = silentSurface(null);
			const watch = new V2StreamWatch({ events: () => {}, preview: () => {}, ended: () => {} }, { goneAfterMs: 5000 });
			watch.watch(surface, { promptId: 'j6' }, true);
			watch.watch(surface, { promptId: 'j6' }, true);
			await vi.advanceTimersByTimeAsync(4900);
			expect(opened.count).toBe(0);
			await vi.advanceTimersByTimeAsync(200);
			expect(opened.count).toBe(1);
			watch.stop('j6');
		});
	});
});
