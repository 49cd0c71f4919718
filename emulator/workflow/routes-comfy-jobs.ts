/**
 * Routes of a current local ComfyUI that 0.3.64 lacks: `GET /api/jobs`, `GET /api/jobs/{id}`,
 * `POST /api/jobs/{id}/cancel` and the batch `POST /api/jobs/cancel` with `{"job_ids": [...]}` (ComfyUI's
 * server.py and comfy_execution/jobs.py); and `GET /api/features`, which both have (the real 0.3.64
 * answers it 200 with the same two keys). `GET /system_stats` both have too, each with its own
 * `comfyui_version`. Elsewhere they do not exist:
 * the local runtime's bare 404, the cloud's JSON 404. A job's status comes from the queue or the history: an interrupted run is `cancelled`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WorkflowEngine } from './engine';
import type { Job } from './jobs';
import { bareUnknownRoute, isObject, parseJson } from './http-util';

/** The version each local mode says in `/system_stats` (the real 0.3.64 says "0.3.64"). */
export const COMFYUI_VERSIONS = { current: '0.4.2', legacy: '0.3.64' } as const;

export const FEATURES = { supports_preview_metadata: true, max_upload_size: 100 * 1024 * 1024 };

function jobRecord(engine: WorkflowEngine, job: Job, detailed: boolean): Record<string, unknown> {
	const createTime = typeof job.extraData['create_time'] === 'number' ? job.extraData['create_time'] : undefined;
	const base = { id: job.id, priority: job.number, ...(createTime !== undefined ? { create_time: createTime } : {}) };
	if (job.state === 'pending' || job.state === 'in_progress') {
		const status = job.state;
		return { ...base, status, outputs_count: 0, previewable_outputs_count: 0 };
	}
	const entry = engine.book.history(job);
	const interrupted = entry.status.messages.some((m) => m[0] === 'execution_interrupted');
	const error = entry.status.messages.find((m) => m[0] === 'execution_error')?.[1];
	const status = entry.status.status_str === 'success' ? 'completed' : interrupted ? 'cancelled' : 'failed';
	const count = Object.values(job.outputs).reduce(
		(n, ui) => n + (ui.images?.length ?? 0) + (ui.video?.length ?? 0) + (ui.audio?.length ?? 0),
		0
	);
	return {
		...base,
		status,
		...(error ? { execution_error: error } : {}),
		outputs_count: count,
		previewable_outputs_count: count,
		...(detailed
			? { outputs: job.outputs, execution_status: entry.status, workflow: { prompt: job.prompt, extra_data: job.extraData } }
			: {})
	};
}

export function installComfyJobRoutes(app: FastifyInstance, engine: WorkflowEngine): void {
	/** Absent on 0.3.64 and on the cloud service: answered as their routers answer an unknown route. */
	const absent = (request: FastifyRequest, reply: FastifyReply) =>
		engine.rules.local
			? bareUnknownRoute(request, reply)
			: reply.code(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` });

	app.get('/api/features', async (request, reply) => (engine.rules.local || engine.rules.currentComfy ? FEATURES : absent(request, reply)));

	app.get('/api/jobs', async (request, reply) => {
		if (!engine.rules.currentComfy) return absent(request, reply);
		const visible = [...engine.book.jobs.values()].filter((j) => j.inHistory || j.state === 'pending' || j.state === 'in_progress');
		const jobs = visible.reverse().map((j) => jobRecord(engine, j, false));
		return { jobs, pagination: { offset: 0, limit: null, total: jobs.length, has_more: false } };
	});

	app.get<{ Params: { id: string } }>('/api/jobs/:id', async (request, reply) => {
		if (!engine.rules.currentComfy) return absent(request, reply);
		const job = engine.book.jobs.get(request.params.id);
		if (!job || (!job.inHistory && job.state !== 'pending' && job.state !== 'in_progress'))
			return reply.code(404).send({ error: 'Job not found' });
		return jobRecord(engine, job, true);
	});

	/** As the real 0.3.64 answers it, without `argv` and the devices (nothing here reads them). */
	for (const path of ['/api/system_stats', '/system_stats'])
		app.get(path, async (request, reply) => {
			if (!engine.rules.local) return absent(request, reply);
			const version = engine.rules.currentComfy ? COMFYUI_VERSIONS.current : COMFYUI_VERSIONS.legacy;
			return { system: { os: 'posix', comfyui_version: version, python_version: '3.11.2', embedded_python: false }, devices: [] };
		});

	/**
	 * The batch cancel: each id cancelled as `/api/jobs/{id}/cancel` would (a waiting job removed, the running one
	 * interrupted); answers which ids it dispatched a cancel for. Must be registered before the `:id` route's siblings
	 * are matched: `/api/jobs/cancel` has three segments, `/api/jobs/:id/cancel` four, so they never collide.
	 */
	app.post<{ Body: unknown }>('/api/jobs/cancel', async (request, reply) => {
		if (!engine.rules.currentComfy) return absent(request, reply);
		const parsed = parseJson(request.body);
		const body = parsed.ok ? parsed.value : undefined;
		const ids = isObject(body) ? body['job_ids'] : undefined;
		if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string'))
			return reply.code(400).send({ error: '"job_ids" must be an array of job ids (strings).' });
		// Waiting jobs first, so removing the running one does not start a listed waiting job first.
		const order = [...ids].sort(
			(a, b) => Number(engine.book.jobs.get(a)?.state === 'in_progress') - Number(engine.book.jobs.get(b)?.state === 'in_progress')
		);
		const cancelled = order.filter((id) => engine.cancelJob(id));
		return { cancelled, not_cancelled: ids.filter((id) => !cancelled.includes(id)) };
	});

	// Idempotent: a finished or unknown id answers {"cancelled": false}, never an error.
	app.post<{ Params: { id: string } }>('/api/jobs/:id/cancel', async (request, reply) => {
		if (!engine.rules.currentComfy) return absent(request, reply);
		return { cancelled: engine.cancelJob(request.params.id) };
	});
}
