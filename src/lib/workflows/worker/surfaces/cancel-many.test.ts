import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../core/rules/profile';
import type { Connection } from '../../../core/worker/context';
import { createGuardedFetch } from '../../../core/worker/guarded-fetch';
import { Surfaces } from '.';

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const empty = () => new Response(null, { status: 200 });
const bare = (status: number) => () => new Response(`${status}: Not Found`, { status, headers: { 'Content-Type': 'text/plain' } });

type Queue = { queue_running: unknown[][]; queue_pending: unknown[][] };
const item = (id: string) => [0, id, {}, {}, []];

/** A local ComfyUI whose queue is `queue` less the jobs a cancel named; every request recorded with its body. */
function comfy(current: boolean, queue: Queue, extra: Record<string, (body: Record<string, unknown>) => Response> = {}) {
	const seen: string[] = [];
	const gone = new Set<string>();
	const drop = (ids: unknown) => {
		for (const id of Array.isArray(ids) ? ids : [ids]) gone.add(String(id));
		return empty();
	};
	const left = (items: unknown[][]) => items.filter((i) => !gone.has(String(i[1])));
	const routes: Record<string, (body: Record<string, unknown>) => Response> = {
		'GET /api/queue': () => json({ queue_running: left(queue.queue_running), queue_pending: left(queue.queue_pending) }),
		'POST /api/queue': (body) => drop(body['delete']),
		'POST /api/interrupt': (body) => drop(body['prompt_id']),
		...(current
			? {
					'GET /api/jobs': () => json({ jobs: [] }),
					'POST /api/jobs/cancel': (body) => (drop(body['job_ids']), json({ cancelled: body['job_ids'] })),
					'POST /api/jobs/a/cancel': () => (drop('a'), json({ cancelled: true }))
				}
			: { 'POST /api/jobs/cancel': bare(405) }),
		...extra
	};
	const fetchImpl = async (url: string, init?: RequestInit) => {
		const route = `${init?.method ?? 'GET'} ${new URL(url).pathname}`;
		seen.push(init?.body ? `${route} ${String(init.body)}` : route);
		if (route.startsWith('GET /api/history/')) return json({});
		return (routes[route] ?? bare(404))(init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {});
	};
	const profile: Profile = {
		id: 'p',
		name: 'P',
		preset: 'local-comfyui',
		workflowUrl: 'http://127.0.0.1:8188',
		routerUrl: null,
		createdAt: 0,
		updatedAt: 0
	};
	const guard = { allowedOrigins: ['http://127.0.0.1:8188'], appOrigin: 'http://app.test', fetchImpl };
	const conn: Connection = { profile, key: undefined, fetch: createGuardedFetch(guard), upload: () => Promise.reject(new Error('none')) };
	const surfaces = new Surfaces({ connection: async () => ({ ok: true, value: conn }) });
	const surface = async () => {
		const found = await surfaces.for('p');
		if (!found.ok) throw new Error(found.error.message);
		return found;
	};
	return { seen, surface };
}

const posts = (seen: string[]) => seen.filter((r) => r.startsWith('POST'));

describe('cancelling many jobs', () => {
	it('a current ComfyUI gets one batch call with every listed job, and each job is read back', async () => {
		const { seen, surface } = comfy(true, { queue_running: [item('run')], queue_pending: [item('a'), item('b')] });
		const report = await (
			await surface()
		).value.cancelMany([{ promptId: 'run' }, { promptId: 'a' }, { promptId: 'b' }, { promptId: 'old' }]);
		expect(posts(seen)).toEqual(['POST /api/jobs/cancel {"job_ids":["a","b","run"]}']);
		expect(report).toEqual({
			ok: true,
			value: {
				via: 'batch',
				jobs: [
					{ promptId: 'a', outcome: { kind: 'removed', via: 'job-cancel' } },
					{ promptId: 'b', outcome: { kind: 'removed', via: 'job-cancel' } },
					// No history entry for it (yet): a running job gone from the queue after the cancel was stopped.
					{ promptId: 'run', outcome: { kind: 'interrupted', via: 'job-cancel' } },
					{ promptId: 'old', outcome: { kind: 'finished-first' } }
				]
			}
		});
	});

	it('ComfyUI 0.3.64 (no batch cancel): one by one, waiting jobs by the queue delete first, then the running one interrupted', async () => {
		const { seen, surface } = comfy(false, { queue_running: [item('run')], queue_pending: [item('a')] });
		const report = await (await surface()).value.cancelMany([{ promptId: 'run' }, { promptId: 'a' }]);
		expect(posts(seen)).toEqual(['POST /api/queue {"delete":["a"]}', 'POST /api/interrupt {"prompt_id":"run"}']);
		expect(report.ok && report.value.via).toBe('one-by-one');
		expect(report.ok && report.value.jobs.map((j) => ('outcome' in j ? j.outcome.kind : j.problem))).toEqual(['removed', 'interrupted']);
	});

	it.each([
		{ server: 'a current ComfyUI', current: true, calls: ['POST /api/jobs/cancel {"job_ids":["a"]}'], via: 'batch' },
		{ server: 'ComfyUI 0.3.64', current: false, calls: ['POST /api/queue {"delete":["a"]}'], via: 'one-by-one' }
	] as const)("one waiting job (the Queue page's own Cancel of it) goes the same way on $server", async ({ current, calls, via }) => {
		const { seen, surface } = comfy(current, { queue_running: [item('run')], queue_pending: [item('a')] });
		const report = await (await surface()).value.cancelMany([{ promptId: 'a' }]);
		expect(posts(seen)).toEqual(calls);
		expect(report.ok && report.value).toEqual({
			via,
			jobs: [{ promptId: 'a', outcome: { kind: 'removed', via: current ? 'job-cancel' : 'queue-delete' } }]
		});
	});

	it('a server that turns out to lack the batch route (a bare 405) is asked one by one, and not offered the batch again', async () => {
		const { seen, surface } = comfy(true, { queue_running: [], queue_pending: [item('a')] }, { 'POST /api/jobs/cancel': bare(405) });
		const first = await surface();
		await first.value.cancelMany([{ promptId: 'a' }]);
		expect(posts(seen)).toEqual(['POST /api/jobs/cancel {"job_ids":["a"]}', 'POST /api/jobs/a/cancel']);
		expect((await surface()).value.capabilities.batchCancel).toBe(false);
	});

	it('says a job the server kept is still waiting: nothing is reported cancelled that the server did not confirm', async () => {
		const { surface } = comfy(false, { queue_running: [], queue_pending: [item('a')] }, { 'POST /api/queue': empty });
		const report = await (await surface()).value.cancelMany([{ promptId: 'a' }]);
		expect(report.ok && report.value.jobs).toEqual([{ promptId: 'a', outcome: { kind: 'still-waiting', via: 'queue-delete' } }]);
	});
});

describe("a server's own history", () => {
	it('ComfyUI deletes entries by POST /api/history and each is read back', async () => {
		const { seen, surface } = comfy(false, { queue_running: [], queue_pending: [] }, { 'POST /api/history': empty });
		const done = await (await surface()).value.deleteHistory([{ promptId: 'x' }, { promptId: 'y' }]);
		expect(done).toEqual({ ok: true, value: { deleted: ['x', 'y'], kept: [] } });
		expect(posts(seen)).toEqual(['POST /api/history {"delete":["x","y"]}']);
	});

	it("reads the server's version from /system_stats, and only that", async () => {
		const stats = { system: { comfyui_version: '0.3.64', argv: ['main.py', '--secret', 'x'] }, devices: [] };
		const { surface } = comfy(false, { queue_running: [], queue_pending: [] }, { 'GET /api/system_stats': () => json(stats) });
		expect(await (await surface()).value.serverVersion()).toEqual({ ok: true, value: '0.3.64' });
	});

	it('a server without /system_stats has no version (null), not an error', async () => {
		const { surface } = comfy(false, { queue_running: [], queue_pending: [] });
		expect(await (await surface()).value.serverVersion()).toEqual({ ok: true, value: null });
	});
});
