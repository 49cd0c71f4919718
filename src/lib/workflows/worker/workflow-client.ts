/**
 * The routes of the workflow service over HTTP, for one profile (the surfaces use them): every call returns a typed value or an error
 * that says what to do. Works against the cloud service (spec A) and a stock local ComfyUI, which
 * has no job-status route and no from-hash (both answer 404 there).
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { readJson, requestIdOf, responseError, type RawResponse } from '../../core/rules/http-response';
import { parseObjectInfo, type NodeDefinitions } from '../protocol/object-info';
import { isObject, type Json } from '../../core/protocol/json';
import type { ApiPrompt, FileRef, HistoryEntry, JobState, QueueResponse } from '../protocol/workflow-api';
import {
	parseCancelled,
	parseFromHashName,
	parseServerVersion,
	parseHistory,
	parseJobStatus,
	parseQueue,
	parseRejection,
	parseSubmitAccepted
} from '../protocol/workflow-api-parse';
import type { Connection } from '../../core/worker/context';
import { credentialFor, type Credential, type HeaderScheme } from '../../core/rules/credential';
import type { HashOffer, SubmitFailure } from './surfaces/surface';

export type { SubmitFailure };

export class WorkflowClient {
	constructor(private readonly connection: Connection) {}

	private get base(): string {
		return this.connection.profile.workflowUrl;
	}

	private credential(scheme: HeaderScheme = 'x-api-key'): Credential {
		return credentialFor(this.connection.key, scheme);
	}

	private async json(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<Result<Json>> {
		const res = await this.connection.fetch({
			url: `${this.base}${path}`,
			method: init.method ?? 'GET',
			credential: this.credential(),
			...(init.body !== undefined ? { body: JSON.stringify(init.body), headers: { 'Content-Type': 'application/json' } } : {})
		});
		return res.ok ? readJson(res.value, 'workflow') : res;
	}

	async objectInfo(): Promise<Result<NodeDefinitions>> {
		const res = await this.json('/api/object_info');
		if (!res.ok) return res;
		const parsed = parseObjectInfo(res.value);
		return parsed.ok ? ok(parsed.nodes) : fail(appError('bad-response', parsed.message));
	}

	/** Sends our own `prompt_id` (ComfyUI accepts one), so a run cut off mid-submit can still be found; the answer's id wins. */
	async submit(
		prompt: ApiPrompt,
		promptId: string,
		clientId: string,
		extraData: Record<string, unknown>
	): Promise<Result<{ promptId: string }, SubmitFailure>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/prompt`,
			method: 'POST',
			credential: this.credential(),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt, prompt_id: promptId, client_id: clientId, extra_data: extraData })
		});
		if (!res.ok) return fail({ kind: 'error', error: res.error });
		const raw = res.value;
		if (raw.status === 400) {
			const rejected = readRejection(raw);
			if (rejected) return fail(rejected);
		}
		const body = readJson(raw, 'workflow');
		if (!body.ok) return fail({ kind: 'error', error: body.error });
		const acceptedId = parseSubmitAccepted(body.value);
		if (!acceptedId) {
			const rejected = isObject(body.value) && body.value['error'] ? readRejection(raw) : undefined;
			if (rejected) return fail(rejected);
			return fail({
				kind: 'error',
				error: appError('bad-response', 'The service accepted the workflow but returned no prompt_id.', {
					status: raw.status,
					requestId: requestIdOf(raw)
				})
			});
		}
		return ok({ promptId: acceptedId });
	}

	/**
	 * `pending` … `cancelled`; `not-found` when the service has no such job; `unsupported` where the
	 * route does not exist (a local runtime, whose router 404 has no CORS headers and so surfaces as
	 * a CORS failure).
	 */
	async jobState(promptId: string): Promise<Result<JobState | 'unsupported' | 'not-found'>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/job/${encodeURIComponent(promptId)}/status`,
			credential: this.credential()
		});
		if (!res.ok) return res.error.kind === 'cors' ? ok('unsupported') : res;
		if (res.value.status === 404) return ok(isJsonBody(res.value) ? 'not-found' : 'unsupported');
		const body = readJson(res.value, 'workflow');
		if (!body.ok) return body;
		const state = parseJobStatus(body.value);
		return state.ok ? state : fail({ ...state.error, requestId: requestIdOf(res.value) });
	}

	/** The history entry of a job, or null when the runtime has none (yet, or a deleted pending job). */
	async history(promptId: string): Promise<Result<HistoryEntry | null>> {
		const res = await this.json(`/api/history/${encodeURIComponent(promptId)}`);
		if (!res.ok) return res;
		return parseHistory(res.value, promptId);
	}

	async queue(): Promise<Result<QueueResponse>> {
		const res = await this.json('/api/queue');
		return res.ok ? parseQueue(res.value) : res;
	}

	deleteFromQueue(promptIds: string[]): Promise<Result<void>> {
		return this.postDelete('/api/queue', promptIds);
	}

	/** ComfyUI's `{delete: [ids]}` to its queue or its history: 200 with no body, whatever it removed. */
	private async postDelete(path: '/api/queue' | '/api/history', promptIds: string[]): Promise<Result<void>> {
		const res = await this.connection.fetch({
			url: `${this.base}${path}`,
			method: 'POST',
			credential: this.credential(),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ delete: promptIds })
		});
		if (!res.ok) return res;
		return res.value.status < 300 ? ok(undefined) : fail(responseError(res.value, 'workflow'));
	}

	async interrupt(promptId?: string): Promise<Result<void>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/interrupt`,
			method: 'POST',
			credential: this.credential(),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(promptId ? { prompt_id: promptId } : {})
		});
		if (!res.ok) return res;
		return res.value.status < 300 ? ok(undefined) : fail(responseError(res.value, 'workflow'));
	}

	/** `POST /api/jobs/{id}/cancel` (newer ComfyUI): whether the server dispatched a cancel; 'unsupported' where the route is missing. */
	async cancelJob(promptId: string): Promise<Result<boolean | 'unsupported'>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/jobs/${encodeURIComponent(promptId)}/cancel`,
			method: 'POST',
			credential: this.credential()
		});
		if (!res.ok) return res.error.kind === 'cors' ? ok('unsupported') : res;
		// 0.3.64 answers a POST to a route it lacks with a bare 405 (its static catch-all allows GET only).
		if ((res.value.status === 404 || res.value.status === 405) && !isJsonBody(res.value)) return ok('unsupported');
		if (res.value.status >= 300) return fail(responseError(res.value, 'workflow'));
		const body = readJson(res.value, 'workflow');
		if (!body.ok) return body;
		return ok(parseCancelled(body.value));
	}

	/**
	 * `POST /api/jobs/cancel` with `{job_ids}` (newer ComfyUI): many jobs in one call. Whether the server took
	 * the call, not what it did (that is read back from its queue); 'unsupported' where the route is missing
	 * (0.3.64: a bare 405 without CORS headers, which a browser sees as a network failure).
	 */
	async cancelJobs(promptIds: string[]): Promise<Result<'sent' | 'unsupported'>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/jobs/cancel`,
			method: 'POST',
			credential: this.credential(),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ job_ids: promptIds })
		});
		if (!res.ok) return res.error.kind === 'cors' ? ok('unsupported') : res;
		if ((res.value.status === 404 || res.value.status === 405) && !isJsonBody(res.value)) return ok('unsupported');
		return res.value.status < 300 ? ok('sent') : fail(responseError(res.value, 'workflow'));
	}

	/** `POST /api/history` with `{delete}`: ComfyUI answers 200 with no body whatever it deleted; read each entry back. */
	deleteHistory(promptIds: string[]): Promise<Result<void>> {
		return this.postDelete('/api/history', promptIds);
	}

	/**
	 * The server's version from `GET /api/system_stats` (`system.comfyui_version`); null where it has no
	 * such route or says none. Only the version is kept: the answer also lists the server's command line.
	 */
	async serverVersion(): Promise<Result<string | null>> {
		const res = await this.connection.fetch({ url: `${this.base}/api/system_stats`, credential: this.credential(), timeoutMs: 10_000 });
		if (!res.ok) return res.error.kind === 'cors' ? ok(null) : res;
		if (res.value.status >= 300 || !isJsonBody(res.value)) return ok(null);
		const body = readJson(res.value, 'workflow');
		return ok(body.ok ? parseServerVersion(body.value) : null);
	}

	/**
	 * `GET /api/jobs?limit=1`: does the server list jobs (and so cancel them by id)? A newer ComfyUI answers
	 * its job list; 0.3.64 has no such route (a bare 404 without CORS headers), though it answers `/api/features`.
	 */
	async listsJobs(): Promise<Result<boolean>> {
		const res = await this.connection.fetch({ url: `${this.base}/api/jobs?limit=1`, credential: this.credential() });
		if (!res.ok) return res.error.kind === 'cors' ? ok(false) : res;
		if (res.value.status !== 200 || !isJsonBody(res.value)) return ok(false);
		const body = readJson(res.value, 'workflow');
		return ok(body.ok && isObject(body.value) && Array.isArray(body.value['jobs']));
	}

	async fromHash(hash: string, name: string, mime: string, signal?: AbortSignal): Promise<Result<HashOffer>> {
		const res = await this.connection.fetch({
			url: `${this.base}/api/assets/from-hash`,
			method: 'POST',
			...(signal ? { signal } : {}),
			credential: this.credential(),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ hash: `blake3:${hash}`, tags: ['input'], name, mime_type: mime })
		});
		if (!res.ok) {
			// A local runtime's 404 carries no CORS headers and surfaces as a CORS failure: no from-hash there.
			return res.error.kind === 'cors' ? ok({ kind: 'unsupported' }) : res;
		}
		if (res.value.status === 404) return ok(isJsonBody(res.value) ? { kind: 'unknown' } : { kind: 'unsupported' });
		if (res.value.status === 405 && !isJsonBody(res.value)) return ok({ kind: 'unsupported' });
		// A newer ComfyUI started without --enable-assets: the route exists and says the service is off.
		if (res.value.status === 503 && isJsonBody(res.value) && serviceDisabled(readJson({ ...res.value, status: 200 }, 'workflow')))
			return ok({ kind: 'unsupported' });
		const body = readJson(res.value, 'workflow');
		if (!body.ok) return body;
		return ok({ kind: 'known', name: parseFromHashName(body.value) ?? name });
	}

	/** The bytes of an output. See docs/ARCHITECTURE.md, "Outputs without leaking the key". */
	async viewBlob(ref: FileRef): Promise<Result<Blob>> {
		const query = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
		const url = `${this.base}/api/view?${query.toString()}`;
		const credential = this.credential('bearer');
		const res = await this.connection.fetch({
			url,
			credential,
			redirect: credential ? 'follow-without-credentials' : 'error',
			binary: true,
			timeoutMs: 120_000
		});
		if (!res.ok) return res;
		if (res.value.status === 401 && credential) {
			return fail(
				appError(
					'unauthorized',
					'This service accepts the API key only in the X-API-Key header, and following its download redirect would send the key to the storage host. Runboard does not do that, so this output cannot be shown here.',
					{ status: 401, requestId: requestIdOf(res.value) }
				)
			);
		}
		if (res.value.status >= 300 || !res.value.blob) return fail(responseError(res.value, 'workflow'));
		return ok(res.value.blob);
	}
}

function isJsonBody(res: RawResponse): boolean {
	return (res.header('Content-Type') ?? '').includes('json');
}

function readRejection(raw: RawResponse): SubmitFailure | undefined {
	const body = readJson({ ...raw, status: 200 }, 'workflow');
	const rejected = body.ok ? parseRejection(body.value) : undefined;
	return rejected && { kind: 'rejected', ...rejected, status: raw.status, requestId: requestIdOf(raw) };
}

function serviceDisabled(body: Result<unknown>): boolean {
	if (!body.ok || !isObject(body.value)) return false;
	const error = body.value['error'];
	return isObject(error) && error['code'] === 'SERVICE_DISABLED';
}
