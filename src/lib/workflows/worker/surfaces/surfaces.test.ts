import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../core/rules/profile';
import type { Connection } from '../../../core/worker/context';
import { createGuardedFetch } from '../../../core/worker/guarded-fetch';
import { CapabilityBook, DEFAULT_CAPABILITIES } from './capabilities';
import { V2Surface } from './v2-surface';
import { Surfaces, surfaceOf } from '.';

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const routerNotFound = () => new Response('404: Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/** A server that answers by route; every request it sees is recorded as `METHOD /path`. */
function server(routes: Record<string, () => Response>) {
	const seen: string[] = [];
	const fetchImpl = async (url: string, init?: RequestInit) => {
		const route = `${init?.method ?? 'GET'} ${new URL(url).pathname}`;
		seen.push(route);
		return (routes[route] ?? routerNotFound)();
	};
	return { seen, fetchImpl };
}

function connection(preset: Profile['preset'], fetchImpl: (url: string, init?: RequestInit) => Promise<Response>): Connection {
	const profile: Profile = {
		id: 'p',
		name: 'P',
		preset,
		workflowUrl: 'http://127.0.0.1:8188',
		routerUrl: null,
		createdAt: 0,
		updatedAt: 0
	};
	const guard = { allowedOrigins: ['http://127.0.0.1:8188'], appOrigin: 'http://app.test', fetchImpl };
	return { profile, key: undefined, fetch: createGuardedFetch(guard), upload: () => Promise.reject(new Error('no uploads here')) };
}

const history = { 'job-1': { prompt: [], outputs: {}, status: { status_str: 'success', completed: true, messages: [] } } };

describe('workflow surfaces', () => {
	it('a local ComfyUI is read from its history, and never asked for a job-status route', async () => {
		const { seen, fetchImpl } = server({ 'GET /api/history/job-1': () => json(history) });
		const surface = surfaceOf(connection('local-comfyui', fetchImpl), new CapabilityBook());
		expect(surface.kind).toBe('local-comfyui');
		const reading = await surface.read({ promptId: 'job-1' });
		expect(reading.ok && reading.value.kind).toBe('history');
		expect(seen).toEqual(['GET /api/history/job-1']);
	});

	it('a job that ends between the history read and the queue read is read as ended, not as gone', async () => {
		let historyReads = 0;
		const { seen, fetchImpl } = server({
			// Not yet in the history at the first look; out of the queue by the second read; in the history at the third.
			'GET /api/history/job-1': () => json(historyReads++ === 0 ? {} : history),
			'GET /api/queue': () => json({ queue_running: [], queue_pending: [] })
		});
		const reading = await surfaceOf(connection('local-comfyui', fetchImpl), new CapabilityBook()).read({ promptId: 'job-1' });
		expect(reading.ok && reading.value.kind).toBe('history');
		expect(seen).toEqual(['GET /api/history/job-1', 'GET /api/queue', 'GET /api/history/job-1']);
	});

	it('a job in neither the history nor the queue, looked at twice, is gone', async () => {
		const { fetchImpl } = server({
			'GET /api/history/job-1': () => json({}),
			'GET /api/queue': () => json({ queue_running: [], queue_pending: [] })
		});
		const reading = await surfaceOf(connection('local-comfyui', fetchImpl), new CapabilityBook()).read({ promptId: 'job-1' });
		expect(reading.ok && reading.value.kind).toBe('vanished');
	});

	it('a cloud profile whose server lacks the job-status route learns it once, and is not asked again', async () => {
		const { seen, fetchImpl } = server({
			'GET /api/history/job-1': () => json({}),
			'GET /api/queue': () => json({ queue_running: [], queue_pending: [[0, 'job-1', {}, {}, []]] })
		});
		const book = new CapabilityBook();
		const first = await surfaceOf(connection('cloud', fetchImpl), book).read({ promptId: 'job-1' });
		expect(first.ok && first.value.kind).toBe('waiting');
		expect(seen).toEqual(['GET /api/job/job-1/status', 'GET /api/history/job-1', 'GET /api/queue']);

		seen.length = 0;
		const again = surfaceOf(connection('cloud', fetchImpl), book);
		expect(again.capabilities.jobStatus).toBe(false);
		await again.read({ promptId: 'job-1' });
		expect(seen).toEqual(['GET /api/history/job-1', 'GET /api/queue']);
	});

	it.each([
		[
			'a job the status route knows, still running',
			() => json({ status: 'in_progress' }),
			{ kind: 'status', state: 'in_progress', history: null }
		],
		['a job the service does not know', () => json({ code: 'not_found', message: 'No such job' }, 404), { kind: 'not-found' }]
	])('a cloud profile reads %s', async (_, answer, expected) => {
		const { fetchImpl } = server({ 'GET /api/job/job-1/status': answer });
		const reading = await surfaceOf(connection('cloud', fetchImpl), new CapabilityBook()).read({ promptId: 'job-1' });
		expect(reading).toEqual({ ok: true, value: expected });
	});

	it('sends the UI workflow as extra_data.extra_pnginfo, as the editor does, and nothing when there is none', async () => {
		const bodies: unknown[] = [];
		const fetchImpl = async (_url: string, init?: RequestInit) => {
			bodies.push(JSON.parse(String(init?.body)));
			return json({ prompt_id: 'job-1', number: 1, node_errors: {} });
		};
		const surface = surfaceOf(connection('local-comfyui', fetchImpl), new CapabilityBook());
		const request = { prompt: {}, promptId: 'job-1', idempotencyKey: 'job-1', clientId: 'c', partner: false };
		const workflow = { nodes: [], links: [], version: 0.4 };
		await surface.submit({ ...request, extraPngInfo: { workflow } });
		await surface.submit(request);
		expect(bodies).toMatchObject([{ extra_data: { extra_pnginfo: { workflow } } }, { extra_data: {} }]);
		expect(bodies[1]).not.toHaveProperty('extra_data.extra_pnginfo');
	});

	it.each(['proxy', 'managed', 'deployment'] as const)(
		'never sends extra_pnginfo to a v2 %s, which accepts no such field',
		async (dialect) => {
			const bodies: unknown[] = [];
			const fetchImpl = async (_url: string, init?: RequestInit) => {
				bodies.push(JSON.parse(String(init?.body)));
				return json({}, 201);
			};
			const surface = new V2Surface(
				connection('cloud', fetchImpl),
				{ ...DEFAULT_CAPABILITIES.v2 },
				() => {},
				dialect,
				'http://127.0.0.1:8188'
			);
			const workflow = { nodes: [], links: [], version: 0.4 };
			const prompt = { '1': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } };
			await surface.submit({
				prompt,
				promptId: 'job-1',
				idempotencyKey: 'job-1',
				clientId: 'c',
				partner: false,
				extraPngInfo: { workflow }
			});
			expect(bodies.length).toBeGreaterThan(0);
			for (const body of bodies) {
				expect(body).toHaveProperty('workflow');
				expect(JSON.stringify(body)).not.toContain('extra_pnginfo');
				expect(body).not.toHaveProperty('extra_data');
			}
		}
	);

	it('a server without from-hash is not offered hashes again', async () => {
		const { seen, fetchImpl } = server({});
		const book = new CapabilityBook();
		const offer = await surfaceOf(connection('local-comfyui', fetchImpl), book).offerHash('ab'.repeat(32), 'x.png', 'image/png');
		expect(offer).toEqual({ ok: true, value: { kind: 'unsupported' } });
		await surfaceOf(connection('local-comfyui', fetchImpl), book).offerHash('ab'.repeat(32), 'x.png', 'image/png');
		expect(seen).toEqual(['POST /api/assets/from-hash']);
	});

	it('forgets what it learned when the profile moves to another address', () => {
		const book = new CapabilityBook();
		book.learn('p', 'http://a.test', 'cloud-v1', { jobStatus: false });
		expect(book.of('p', 'http://a.test', 'cloud-v1').jobStatus).toBe(false);
		expect(book.of('p', 'http://b.test', 'cloud-v1').jobStatus).toBe(true);
	});

	it.each([
		['a current ComfyUI', true, { jobList: true, jobCancel: true, batchCancel: true, fromHash: true }],
		['ComfyUI 0.3.64', false, { jobList: false, jobCancel: false, batchCancel: false, fromHash: false }]
	])('probes %s once per profile by its job list, and remembers what it has', async (_, current, expected) => {
		// Both answer /api/features (the real 0.3.64 does too): only the job list tells them apart.
		const { seen, fetchImpl } = server({
			'GET /api/features': () => json({ supports_preview_metadata: true, max_upload_size: 104857600 }),
			...(current ? { 'GET /api/jobs': () => json({ jobs: [], pagination: { offset: 0, limit: 1, total: 0, has_more: false } }) } : {})
		});
		const conn = connection('local-comfyui', fetchImpl);
		const surfaces = new Surfaces({ connection: async () => ({ ok: true, value: conn }) });
		const first = await surfaces.for('p');
		await surfaces.for('p');
		expect(first.ok && first.value.capabilities).toMatchObject(expected);
		expect(seen).toEqual(['GET /api/jobs']);
		if (!current) {
			const offer = first.ok ? await first.value.offerHash('ab'.repeat(32), 'x.png', 'image/png') : null;
			expect(offer).toEqual({ ok: true, value: { kind: 'unsupported' } });
			expect(seen).toEqual(['GET /api/jobs']);
		}
	});

	it.each([
		[
			'a running job on 0.3.64 is interrupted, not queue-deleted',
			false,
			{ queue_running: [[0, 'job-1', {}, {}, []]], queue_pending: [] },
			'POST /api/interrupt',
			{ kind: 'interrupted', via: 'interrupt' }
		],
		[
			'a running job on a current server uses job cancel',
			true,
			{ queue_running: [[0, 'job-1', {}, {}, []]], queue_pending: [] },
			'POST /api/jobs/job-1/cancel',
			{ kind: 'interrupted', via: 'job-cancel' }
		],
		[
			'a waiting job on 0.3.64 is deleted from the queue',
			false,
			{ queue_running: [], queue_pending: [[0, 'job-1', {}, {}, []]] },
			'POST /api/queue',
			{ kind: 'removed', via: 'queue-delete' }
		]
	])('Cancel: %s, and reports what the queue shows afterwards', async (_, current, queue, route, outcome) => {
		let queueReads = 0;
		const interruptedHistory = {
			'job-1': {
				...history['job-1'],
				status: { status_str: 'error', completed: false, messages: [['execution_interrupted', { node_id: '3' }]] }
			}
		};
		const { seen, fetchImpl } = server({
			'GET /api/features': () => json({}),
			...(current ? { 'GET /api/jobs': () => json({ jobs: [] }) } : {}),
			'GET /api/queue': () => json(queueReads++ === 0 ? queue : { queue_running: [], queue_pending: [] }),
			'POST /api/interrupt': () => new Response(null, { status: 200 }),
			'POST /api/queue': () => new Response(null, { status: 200 }),
			'POST /api/jobs/job-1/cancel': () => json({ cancelled: true }),
			'GET /api/history/job-1': () => json(interruptedHistory)
		});
		const conn = connection('local-comfyui', fetchImpl);
		const surface = await new Surfaces({ connection: async () => ({ ok: true, value: conn }) }).for('p');
		const stopped = surface.ok ? await surface.value.stop({ promptId: 'job-1' }) : null;
		expect(stopped).toEqual({ ok: true, value: outcome });
		expect(seen).toContain(route);
		expect(seen.filter((r) => r === 'POST /api/queue' || r === 'POST /api/interrupt' || r.startsWith('POST /api/jobs'))).toEqual([route]);
	});

	it('says a job finished before the cancel took effect when it is no longer queued', async () => {
		const { fetchImpl } = server({
			'GET /api/jobs': () => json({ jobs: [] }),
			'GET /api/queue': () => json({ queue_running: [], queue_pending: [] })
		});
		const conn = connection('local-comfyui', fetchImpl);
		const surface = await new Surfaces({ connection: async () => ({ ok: true, value: conn }) }).for('p');
		expect(surface.ok && (await surface.value.stop({ promptId: 'job-1' }))).toEqual({ ok: true, value: { kind: 'finished-first' } });
	});

	it.each([
		[
			'answers the v2 probe in the error envelope',
			() => json({ error: { code: 'not_found', message: 'No such job', details: null } }, 404),
			'v2'
		],
		['has no v2 route (a 404 without the envelope)', routerNotFound, 'cloud-v1'],
		[
			'answers the v2 probe with 401 in the envelope (v2 is there, the key is wrong)',
			() => json({ error: { code: 'unauthorized', message: 'Bad key', details: null } }, 401),
			'v2'
		]
	])('a Cloud profile whose service %s: probed once, then remembered', async (_, answer, kind) => {
		const { seen, fetchImpl } = server({ 'GET /api/v2/jobs/runboard-probe': answer });
		const conn = connection('cloud', fetchImpl);
		const surfaces = new Surfaces({ connection: async () => ({ ok: true, value: conn }) });
		const first = await surfaces.for('p');
		const second = await surfaces.for('p');
		expect(first.ok && first.value.kind).toBe(kind);
		expect(second.ok && second.value.kind).toBe(kind);
		expect(seen).toEqual(['GET /api/v2/jobs/runboard-probe']);
	});

	it.each([
		[
			'did not answer the probe (offline)',
			(): Response => {
				throw new TypeError('Failed to fetch');
			}
		],
		['answered with a gateway page (502, restarting)', () => new Response('<html>Bad gateway</html>', { status: 502 })]
	])('a Cloud profile whose service %s runs on v1 for now and is asked again next time', async (_, unknown) => {
		let back = false;
		const seen: string[] = [];
		const fetchImpl = async (url: string, init?: RequestInit) => {
			// The no-cors and unfollowed-redirect requests are the network diagnosis telling a refusal from no answer.
			if (init?.mode !== 'no-cors' && init?.redirect !== 'manual') seen.push(new URL(url).pathname);
			return back ? json({ error: { code: 'not_found', message: 'No such job', details: null } }, 404) : unknown();
		};
		const conn = connection('cloud', fetchImpl);
		const surfaces = new Surfaces({ connection: async () => ({ ok: true, value: conn }) });
		const first = await surfaces.for('p');
		expect(first.ok && first.value.kind).toBe('cloud-v1');
		back = true;
		const later = await surfaces.for('p');
		expect(later.ok && later.value.kind).toBe('v2');
		expect(seen.filter((path) => path === '/api/v2/jobs/runboard-probe')).toHaveLength(2);
	});

	it('the demo profile is never probed: it stays on v1', async () => {
		const { seen, fetchImpl } = server({});
		const conn = connection('demo', fetchImpl);
		const surface = await new Surfaces({ connection: async () => ({ ok: true, value: conn }) }).for('p');
		expect(surface.ok && surface.value.kind).toBe('cloud-v1');
		expect(seen).toEqual([]);
	});
});
