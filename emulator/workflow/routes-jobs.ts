/** Submitting, watching and stopping jobs: /prompt, /job/{id}/status, /queue, /interrupt, /history. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmulatorState } from '../state';
import type { HistoryResponse, SubmitRequest } from '../../src/lib/workflows/protocol/workflow-api';
import type { WorkflowEngine } from './engine';
import { both, bareNotFound, badRequest, isObject, parseJson } from './http-util';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function installJobRoutes(app: FastifyInstance, state: EmulatorState, engine: WorkflowEngine): void {
	for (const path of both('/prompt')) {
		app.post<{ Body: unknown }>(path, async (request, reply) => {
			const rules = engine.rules;
			if (rules.noCredits)
				return reply
					.code(402)
					.send({ code: 'insufficient_credits', message: 'Your account has no credits left: add credits to run workflows.' });
			if (rules.inactiveSubscription)
				return reply
					.code(429)
					.send({ code: 'subscription_inactive', message: 'Your subscription is not active: renew it to run workflows.' });
			const parsed = parseJson(request.body);
			// aiohttp's request.json() raising inside ComfyUI's handler: a plain-text 500.
			if (!parsed.ok)
				return reply.code(500).type('text/plain; charset=utf-8').send('500 Internal Server Error\n\nServer got itself in trouble');
			const body = parsed.value;
			if (!isObject(body) || !('prompt' in body)) {
				const error = { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} };
				return reply.code(400).send({ error, node_errors: {} });
			}
			if (body['extra_data'] !== undefined && !isObject(body['extra_data'])) {
				const error = { type: 'invalid_extra_data', message: 'extra_data must be an object', details: '', extra_info: {} };
				return reply.code(400).send({ error, node_errors: {} });
			}
			// ComfyUI stores a client's prompt_id verbatim, so it takes only the canonical lowercase UUID form.
			const promptId = body['prompt_id'];
			if (rules.local && promptId !== undefined && promptId !== null && (typeof promptId !== 'string' || !CANONICAL_UUID.test(promptId))) {
				const error = {
					type: 'invalid_prompt_id',
					message: 'prompt_id must be a valid UUID',
					details: 'prompt_id must be a UUID string in canonical lowercase hyphenated form; omit it to let the server generate one',
					extra_info: {}
				};
				return reply.code(400).send({ error, node_errors: {} });
			}
			const outcome = engine.submit(body as unknown as SubmitRequest);
			if (!outcome.ok) return reply.code(400).send({ error: outcome.error, node_errors: outcome.nodeErrors });
			return { prompt_id: outcome.job.id, number: outcome.job.number, node_errors: outcome.nodeErrors };
		});
		app.get(path, async () => ({ exec_info: { queue_remaining: engine.book.remaining() } }));
	}

	for (const path of both('/job/:id/status')) {
		app.get<{ Params: { id: string } }>(path, async (request, reply) => {
			if (engine.rules.local) return bareNotFound(reply);
			const job = engine.book.jobs.get(request.params.id);
			if (!job) return reply.code(404).send({ code: 'not_found', message: `No job with id ${request.params.id}.` });
			return { status: job.state };
		});
	}

	for (const path of both('/queue')) {
		app.get(path, async () => engine.book.queue());
		app.post<{ Body: unknown }>(path, async (request, reply) => {
			const parsed = parseJson(request.body);
			if (!parsed.ok) return badRequest(reply, 'The body is not valid JSON: send {"delete": ["<prompt_id>", ...]} or {"clear": true}.');
			const body = parsed.value ?? {};
			if (!isObject(body)) return badRequest(reply, 'The body must be a JSON object.');
			const ids = body['delete'];
			if (ids !== undefined && (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string'))) {
				return badRequest(reply, '"delete" must be an array of prompt ids (strings).');
			}
			if (body['clear'] !== undefined && typeof body['clear'] !== 'boolean') return badRequest(reply, '"clear" must be a boolean.');
			if (body['clear'] === true) engine.clearPending();
			if (ids) engine.delete(ids as string[]);
			return reply.code(200).send();
		});
	}

	for (const path of both('/interrupt')) {
		app.post<{ Body: unknown }>(path, async (_request, reply) => {
			// ComfyUI treats an unreadable body as no body: interrupt without a prompt id.
			const parsed = parseJson(_request.body);
			const body = parsed.ok && isObject(parsed.value) ? parsed.value : {};
			const promptId = body['prompt_id'];
			if (promptId !== undefined && typeof promptId !== 'string') return badRequest(reply, '"prompt_id" must be a string.');
			engine.interrupt(promptId);
			return reply.code(200).send();
		});
	}

	const historyOf = (ids: string[]): HistoryResponse => {
		const out: HistoryResponse = {};
		for (const id of ids) {
			const job = engine.book.jobs.get(id);
			if (!job || !job.inHistory || job.state === 'pending' || job.state === 'in_progress') continue;
			out[id] = engine.book.history(job);
		}
		return out;
	};

	for (const path of both('/history')) {
		app.get<{ Querystring: { max_items?: string } }>(path, async (request, reply) => {
			const raw = request.query.max_items;
			const max = raw === undefined ? undefined : Number(raw);
			if (max !== undefined && (!Number.isInteger(max) || max < 0)) return badRequest(reply, 'max_items must be a non-negative integer.');
			const ids = [...engine.book.jobs.keys()];
			return historyOf(max === undefined ? ids : ids.slice(Math.max(0, ids.length - max)));
		});
		app.post<{ Body: unknown }>(path, async (request, reply) => {
			const parsed = parseJson(request.body);
			// The real ComfyUI (0.3.64 observed): a body that is not JSON is its plain-text 500; any other JSON is 200, ignored.
			if (!parsed.ok && engine.rules.local)
				return reply.code(500).type('text/plain; charset=utf-8').send('500 Internal Server Error\n\nServer got itself in trouble');
			if (!parsed.ok || (!engine.rules.local && !isObject(parsed.value ?? {})))
				return badRequest(reply, 'The body must be a JSON object such as {"clear": true} or {"delete": [...]}.');
			const body = (isObject(parsed.value) ? parsed.value : {}) as Record<string, unknown>;
			const ids = Array.isArray(body['delete']) ? body['delete'].filter((i): i is string => typeof i === 'string') : [];
			for (const id of body['clear'] === true ? [...engine.book.jobs.keys()] : ids) {
				const job = engine.book.jobs.get(id);
				if (job && job.state !== 'pending' && job.state !== 'in_progress') job.inHistory = false;
			}
			return reply.code(200).send();
		});
	}
	for (const path of both('/history/:id')) {
		app.get<{ Params: { id: string } }>(path, async (request) => historyOf([request.params.id]));
	}
	void state;
}
