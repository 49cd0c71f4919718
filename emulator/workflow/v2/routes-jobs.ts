/** v2 jobs: submit, read, cancel, the event stream, and the proxy's job list. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { JOB_STATUSES } from '../../../src/lib/workflows/protocol/workflow-v2';
import { isObject, parseJson } from '../http-util';
import type { V2Core, SurfaceState } from './core';
import { v2Error } from './envelope';
import { canonicalJson, fingerprintOf } from './idempotency';
import { isTerminal, type JobRecord } from './jobs';
import { keyed } from './keyed';
import { SseStream } from './sse';
import { submitJob } from './submit';

export function installJobRoutes(app: FastifyInstance, core: V2Core, surface: SurfaceState): void {
	const rules = surface.rules;
	const relocated = () => core.state.scenario === 'v2-relocated-urls' && !rules.proxyRoutes;

	const find = (id: string, reply: FastifyReply): JobRecord | undefined => {
		const rec = core.jobs.records.get(id);
		const live = rec && rec.rules.name === rules.name ? core.jobs.live(rec) : undefined;
		if (!live) void v2Error(reply, 404, 'not_found', `No job with the id ${id}.`);
		return live;
	};

	app.post<{ Body: unknown }>('/jobs', async (request, reply) => {
		const parsed = parseJson(request.body);
		if (!parsed.ok || !isObject(parsed.value))
			return v2Error(reply, 422, 'invalid_request', 'The body must be a JSON object: {"workflow": {...}, "extra_data"?: {...}}.');
		const body = parsed.value;
		return keyed(core, surface, request, reply, fingerprintOf([canonicalJson(body)]), async () => submitJob(core, surface, body));
	});

	const read = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
		const rec = find(request.params.id, reply);
		return rec ? reply.send(core.jobBody(rec)) : reply;
	};
	app.get('/jobs/:id', read);
	app.get('/x/jobs/:id', read);

	const cancel = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
		const rec = find(request.params.id, reply);
		if (!rec) return reply;
		const status = core.jobs.status(rec);
		if (core.upstream064(rules)) {
			// ComfyUI 0.3.64 lacks the job-cancel route: "the proxy answers `canceling` and the job runs on
			// to `succeeded`; cancelling a queued job answers `queued` and the job runs later". Only the answer
			// says `canceling`: every read after it says `running` (seen on the real pair).
			if (status === 'running') return reply.send({ ...core.jobBody(rec), status: 'canceling' });
		} else if (status === 'queued') {
			core.engine.delete([rec.id]);
			rec.completedAt = core.state.now();
			core.jobs.announce(rec);
		} else if (status === 'running') {
			core.engine.interrupt(rec.id);
			if (rules.cancelAtOnce) {
				// The proxy may answer `canceled` at once: wait for the run's next checkpoint.
				for (let i = 0; i < 500 && core.jobs.status(rec) === 'running'; i++) await sleep(5);
			} else {
				rec.canceling = true;
				core.jobs.announce(rec);
			}
		}
		return reply.send(core.jobBody(rec));
	};
	app.post<{ Params: { id: string } }>('/jobs/:id/cancel', async (request, reply) =>
		relocated() ? v2Error(reply, 404, 'not_found', 'No such route: follow job.urls.cancel.') : cancel(request, reply)
	);
	app.post('/x/jobs/:id/stop', cancel);

	const events = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
		const rec = find(request.params.id, reply);
		if (!rec) return reply;
		const faults = core.state.faults;
		const cap = faults.v2StreamCap >= 0 ? faults.v2StreamCap : rules.streamCap;
		if (cap !== null && surface.openStreams >= cap) {
			reply.header('Retry-After', '5');
			return v2Error(reply, 429, 'too_many_streams', `At most ${cap} event streams at once: poll GET /jobs/{id}, or retry later.`);
		}
		surface.openStreams++;
		// 0.3.64, as on the real pair: the proxy opens ComfyUI's socket under the job's client id, and a second
		// socket of that id replaces the first (which starves); when the first then closes, ComfyUI's clean-up
		// unregisters the id, so the second starves too. A starved stream learns the end at a keep-alive check.
		const upstream064 = core.upstream064(rules);
		if (upstream064) for (const s of [...rec.channel.streams]) s.starve();
		const headers: Record<string, string> = {};
		for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = String(v);
		reply.hijack();
		reply.raw.writeHead(200, {
			...headers,
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache',
			Connection: 'keep-alive'
		});
		const stream = new SseStream(reply.raw, {
			keepaliveMs: rules.proxyStream ? core.selfHosted.keepaliveMs : null,
			dropAfterFrames: faults.v2StreamDropAfterFrames,
			observer: core.writeObserver,
			onClose: () => {
				surface.openStreams--;
				rec.channel.streams.delete(stream);
				if (upstream064 && stream.isStarved) for (const s of rec.channel.streams) s.starve();
			},
			terminal: () => {
				const now = core.jobs.status(rec);
				return isTerminal(now) ? { status: now } : null;
			}
		});
		const status = core.jobs.status(rec);
		stream.send('status', status === 'queued' ? { status, queue_position: core.jobs.queuePosition(rec) } : { status });
		// A finished job's stream is its terminal status, then the end (GET /jobs/{id} has the rest).
		if (isTerminal(status)) {
			stream.end();
			return reply;
		}
		if (rec.progress) stream.send('progress', rec.progress);
		if (rec.preview) stream.send('preview', rec.preview);
		if (!stream.closed) rec.channel.streams.add(stream);
		return reply;
	};
	app.get<{ Params: { id: string } }>('/jobs/:id/events', async (request, reply) =>
		relocated() ? v2Error(reply, 404, 'not_found', 'No such route: follow job.urls.events.') : events(request, reply)
	);
	app.get('/x/streams/:id', events);

	if (rules.proxyRoutes) {
		// A route beyond the contract (the real proxy's): the workflow as ComfyUI queued it.
		app.get<{ Params: { id: string } }>('/jobs/:id/workflow', async (request, reply) => {
			const rec = find(request.params.id, reply);
			if (!rec) return reply;
			const job = core.engine.book.jobs.get(rec.id);
			return job ? reply.send({ workflow: job.prompt }) : v2Error(reply, 404, 'not_found', `No workflow for the job ${rec.id}.`);
		});
		app.get<{ Querystring: { status?: string; limit?: string } }>('/jobs', async (request, reply) => {
			const { status, limit } = request.query;
			// As the real proxy: `status` may name several, comma-separated (`running,queued`); an unknown one is 400.
			const wanted = status === undefined || status === '' ? null : new Set(status.split(',').map((s) => s.trim()));
			const unknown = [...(wanted ?? [])].filter((s) => !(JOB_STATUSES as readonly string[]).includes(s));
			if (unknown.length > 0) return v2Error(reply, 400, 'invalid_request', `Unknown status filter value(s): ${unknown.join(', ')}.`);
			const n = limit === undefined ? 50 : Number(limit);
			if (!Number.isInteger(n) || n < 1 || n > 1000)
				return v2Error(reply, 422, 'invalid_request', '"limit" must be an integer from 1 to 1000.');
			const mine = [...core.jobs.records.values()].filter((r) => r.rules.name === rules.name).reverse();
			const jobs = mine.map((r) => core.jobBody(r)).filter((j) => wanted === null || wanted.has(j.status));
			return { jobs: jobs.slice(0, n) };
		});
	}
}
