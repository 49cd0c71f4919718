/**
 * Every request the whole worker (as the app assembles it) sends to a workflow server in one minute of
 * a fake clock, with the runs page and one run's page open: each HTTP request, each diagnosis probe
 * behind a failed one, each WebSocket handshake and each event stream. Issue 27's bar: at most 12.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../core/worker/kv-store';
import type { WorkerApi } from '../core/protocol/worker-api';
import { RUN_SCHEMA_VERSION, type WorkflowRun } from '../core/protocol/workflow-run';
import { RunsRepo } from '../workflows/worker/runs-repo';
import { composeWorker } from './compose';

const APP = 'http://app.test';
const COMFY = 'http://127.0.0.1:8188';
const PROXY = 'http://127.0.0.1:8811';
const JOB = '3f2b8c1e-6a4d-4e8b-9c1f-2d7e5a9b0c11';
const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const bare404 = () => new Response('404: Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/** A fake server: it is up or down, answers by route, and records every request it is sent (or that fails on it). */
class FakeServer {
	up = true;
	readonly seen: Array<{ at: number; what: string }> = [];
	readonly sockets = new Set<FakeSocket>();

	constructor(
		readonly origin: string,
		private readonly routes: (method: string, path: string, init?: RequestInit) => Response | undefined
	) {}

	record(what: string): void {
		this.seen.push({ at: Date.now(), what });
	}

	async fetch(url: URL, init?: RequestInit): Promise<Response> {
		// As in browsers: a no-cors fetch that does not follow redirects fails at once and is sent nowhere.
		if (init?.mode === 'no-cors' && (init.redirect ?? 'follow') !== 'follow') throw new TypeError('Failed to fetch');
		const probe = init?.mode === 'no-cors' ? ' (no-cors probe)' : '';
		this.record(`${init?.method ?? 'GET'} ${url.pathname}${url.search}${probe}`);
		// A refused connection fails within a few milliseconds.
		await new Promise((resolve) => setTimeout(resolve, 5));
		if (!this.up) throw new TypeError('Failed to fetch');
		if (probe) return new Response(null, { status: 200 });
		return this.routes(init?.method ?? 'GET', `${url.pathname}${url.search}`, init) ?? bare404();
	}

	/** The server process dies: open sockets drop, nothing answers. */
	die(): void {
		this.up = false;
		for (const socket of this.sockets) socket.drop();
	}

	countFrom(from: number): string[] {
		return this.seen.filter((r) => r.at >= from).map((r) => r.what);
	}
}

let servers: FakeServer[] = [];
const serverOf = (url: string) => servers.find((s) => s.origin === new URL(url.replace(/^ws/, 'http')).origin);

/** A WebSocket whose handshake reaches the fake server: open when it is up, closed unopened when it is down. */
class FakeSocket {
	binaryType = 'blob';
	onopen: (() => void) | null = null;
	onclose: ((event: { code: number }) => void) | null = null;
	onmessage: ((event: { data: string }) => void) | null = null;
	private readonly server: FakeServer | undefined;

	constructor(url: string) {
		this.server = serverOf(url);
		this.server?.record('WebSocket /ws');
		setTimeout(() => {
			if (!this.server?.up) return this.onclose?.({ code: 1006 });
			this.server.sockets.add(this);
			this.onopen?.();
			this.onmessage?.({ data: JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 1 } }, sid: 'sid-1' } }) });
		}, 5);
	}

	send(): void {}

	close(): void {
		this.server?.sockets.delete(this);
	}

	drop(): void {
		this.server?.sockets.delete(this);
		this.onclose?.({ code: 1006 });
	}
}

async function fetchImpl(input: string | URL | Request, init?: RequestInit): Promise<Response> {
	const url = new URL(String(input));
	if (url.origin === APP) return new Response('not found', { status: 404 }); // no runtime config
	const server = serverOf(url.href);
	if (!server) throw new TypeError('Failed to fetch');
	return server.fetch(url, init);
}

/** The proxy's event stream of a running job, as the real one frames it: `running`, then one node count every 5 s. */
function eventStream(signal: AbortSignal | undefined): Response {
	const encoder = new TextEncoder();
	let timer: ReturnType<typeof setInterval> | undefined;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			let done = 0;
			const frame = (event: string, data: unknown) =>
				controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
			frame('status', { status: 'running' });
			timer = setInterval(() => {
				done = Math.min(done + 1, 13);
				frame('progress', { value: 1.0, nodes_done: done, nodes_total: done, current_node: null, step: null, steps: null });
			}, 5000);
			signal?.addEventListener('abort', () => {
				clearInterval(timer);
				controller.error(new DOMException('aborted', 'AbortError'));
			});
		},
		cancel() {
			clearInterval(timer);
		}
	});
	return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function runningRun(profileId: string, extra: Partial<WorkflowRun> = {}): WorkflowRun {
	return {
		schemaVersion: RUN_SCHEMA_VERSION,
		kind: 'workflow',
		id: 'run-1',
		profileId,
		title: 'Slow chain',
		workflowId: null,
		prompt: {},
		seeds: {},
		partner: false,
		promptId: JOB,
		status: 'running',
		createdAt: 0,
		queuedAt: Date.now(),
		startedAt: Date.now(),
		progress: { done: [], total: 0, current: null, step: null, finishing: false },
		outputs: [],
		notifications: [],
		...extra
	};
}

/** The app's worker with one profile active and one run open; its runs page and the run's page as the pages ask. */
async function openApp(
	profile: { preset: 'local-comfyui' | 'self-hosted-proxy'; workflowUrl: string; comfyUrl?: string },
	run: WorkflowRun
) {
	const kv = new MemoryStore();
	await kv.set('profile:p', { id: 'p', name: 'Desk', routerUrl: null, createdAt: 0, updatedAt: 0, ...profile });
	await kv.set('setting:activeProfile', 'p');
	await new RunsRepo(kv).put(run);
	const { api } = composeWorker({ kv, appOrigin: APP, fetchImpl: fetchImpl as typeof fetch, electLeader: (leader) => leader() });
	await api.init({});
	await openPages(api, run.id);
	return api;
}

/** The runs page reads the timeline once; the run page reads its run, and the queue every 3 s while it waits. */
async function openPages(api: WorkerApi, runId: string): Promise<void> {
	await api.timeline({});
	await api.getRun({ id: runId });
	setInterval(() => {
		void api.getRun({ id: runId }).then((run) => (run?.status === 'queued' ? api.queue({ profileId: run.profileId }) : undefined));
	}, 3000);
}

const summary = (requests: string[]) => {
	const counts = new Map<string, number>();
	for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
	return [...counts].map(([r, n]) => `${n} × ${r}`).join(', ');
};

describe('requests to the server in one minute, runs page and one run page open', () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: new Date('2026-11-28T05:00:00Z') });
		vi.stubGlobal('WebSocket', FakeSocket);
	});
	afterEach(() => {
		vi.unstubAllGlobals();
		vi.useRealTimers();
		servers = [];
	});

	function localComfy(): FakeServer {
		return new FakeServer(COMFY, (method, path) => {
			if (path === '/api/queue') return json({ queue_running: [[0, JOB, {}, {}, []]], queue_pending: [] });
			if (path === '/api/features') return json({ supports_preview_metadata: true, max_upload_size: 104857600 });
			if (path === '/api/object_info') return json({});
			if (path.startsWith('/api/history')) return json({});
			if (method === 'POST') return new Response('405: Method Not Allowed', { status: 405 });
			return undefined;
		});
	}

	// The backoff's jitter drawn at its two ends: the unluckiest draw (0) asks most often.
	it.each([0, 0.999])(
		'a local ComfyUI that dies mid-run: at most 12 (jitter draw %s), and live again within 30 s of its return',
		async (draw) => {
			vi.spyOn(Math, 'random').mockReturnValue(draw);
			const comfy = localComfy();
			servers = [comfy];
			const api = await openApp({ preset: 'local-comfyui', workflowUrl: COMFY }, runningRun('p'));
			const socket: string[] = [];
			api.subscribe((event) => event.type === 'socket' && socket.push(event.state.status));
			await vi.advanceTimersByTimeAsync(10_000);
			const died = Date.now();
			comfy.die();
			await vi.advanceTimersByTimeAsync(60_000);
			const sent = comfy.countFrom(died);
			console.info(`local ComfyUI down for a minute (draw ${draw}): ${sent.length} requests: ${summary(sent)}`);
			expect(sent.length).toBeLessThanOrEqual(12);
			expect(socket.at(-1)).not.toBe('open');

			comfy.up = true;
			await vi.advanceTimersByTimeAsync(30_000);
			expect(socket.at(-1)).toBe('open');
			expect(comfy.countFrom(died).filter((r) => r === 'WebSocket /ws').length, 'one handshake, once it answers').toBe(1);
		}
	);

	it('a local ComfyUI that is down when the app opens: at most 12', async () => {
		const comfy = localComfy();
		comfy.up = false;
		servers = [comfy];
		const opened = Date.now();
		await openApp({ preset: 'local-comfyui', workflowUrl: COMFY }, runningRun('p'));
		await vi.advanceTimersByTimeAsync(60_000);
		const sent = comfy.countFrom(opened);
		console.info(`local ComfyUI down from the start: ${sent.length} requests: ${summary(sent)}`);
		expect(sent.length).toBeLessThanOrEqual(12);
	});

	it('an open run on the self-hosted proxy with a healthy event stream: at most 12', async () => {
		const links = { self: `/api/v2/jobs/${JOB}`, events: `/api/v2/jobs/${JOB}/events`, cancel: `/api/v2/jobs/${JOB}/cancel` };
		const job = {
			id: JOB,
			status: 'running',
			created_at: '2026-11-28T04:59:00.000000+00:00',
			started_at: null,
			completed_at: null,
			expires_at: '2026-11-29T04:59:00.000000+00:00',
			queue_position: null,
			progress: null,
			outputs: [],
			error: null,
			urls: links
		};
		const proxy = new FakeServer(PROXY, (_method, path, init) => {
			if (path === links.self) return json(job);
			if (path.startsWith('/api/v2/jobs?')) return json({ jobs: [job] });
			if (path === links.events) return eventStream(init?.signal ?? undefined);
			if (path === '/api/v2/health') return json({ status: 'healthy' });
			return json({ error: { code: 'not_found', message: 'No such route.', details: null } }, 404);
		});
		const comfy = localComfy();
		servers = [proxy, comfy];
		const opened = Date.now();
		await openApp(
			{ preset: 'self-hosted-proxy', workflowUrl: PROXY, comfyUrl: COMFY },
			runningRun('p', { jobLinks: { self: `${PROXY}${links.self}`, events: `${PROXY}${links.events}`, cancel: `${PROXY}${links.cancel}` } })
		);
		await vi.advanceTimersByTimeAsync(60_000);
		const sent = [...proxy.countFrom(opened), ...comfy.countFrom(opened)];
		console.info(`proxy run with a healthy stream: ${sent.length} requests: ${summary(sent)}`);
		expect(
			sent.filter((r) => r.endsWith('/events')),
			'one stream, kept open'
		).toHaveLength(1);
		expect(sent.length).toBeLessThanOrEqual(12);
	});
});
