import { describe, expect, it } from 'vitest';
import { appError } from '../../domain/errors';
import type { V2StreamEvent } from '../../domain/v2-events';
import type { ServerEvent } from '../../wire/workflow-events';
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
});
