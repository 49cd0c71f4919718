/**
 * The v2 jobs API (`/api/v2`: assets and jobs) on its three surfaces: the managed service, a
 * per-deployment endpoint (both Bearer) and the self-hosted proxy (no key or a static token). The
 * pure decisions live in `domain/` (`v2-idempotency`, `v2-job-mapping`, `v2-errors`, `v2-events`);
 * this file does the I/O. Job links (`urls`) are followed when the answer gave them; a job known
 * only by id (after a reload) is read at the contract's `jobs/{id}`.
 */
import { credentialFor } from '../../../core/rules/credential';
import { backoffDelay, SOCKET_BACKOFF } from '../../../core/rules/backoff';
import { appError, fail, ok, type Result } from '../../../core/protocol/errors';
import type { NodeDefinitions } from '../../protocol/object-info';
import { createV2EventReader, type V2StreamEvent } from '../../protocol/v2-events';
import { v2ErrorOf } from '../../protocol/v2-errors';
import { afterFromHash, afterSubmit, pickRecordedJob, retryAfterMs } from '../../rules/v2-idempotency';
import { ASSET_NAME_PREFIX, assetInputName, historyOf, jobStateOf } from '../../rules/v2-job-mapping';
import { arr, isObject, tryParseJson } from '../../../core/protocol/json';
import type { FileRef } from '../../protocol/workflow-api';
import { TERMINAL_JOB_STATUSES, type JobStatus, type V2Job, type V2Output } from '../../protocol/workflow-v2';
import { parseV2Asset, parseV2Envelope, parseV2Job } from '../../protocol/workflow-v2-parse';
import { afterCancelRead, type StopOutcome, type StopRoute } from '../../rules/stop-outcome';
import type { Connection } from '../../../core/worker/context';
import type { Credential, GuardedRequest } from '../../../core/worker/guarded-fetch';
import type { CancelManyReport, ServerHistoryDelete } from '../../protocol/api';
import { cancelOneByOne } from './cancel-many';
import { WorkflowClient } from '../workflow-client';
import { downloadResuming } from '../resumable-download';
import type { SurfaceCapabilities } from './capabilities';
import { callV2, errorOf, exchangeOf, linkHealthOf, sleep, type Answer } from './v2-http';
import { toNodeErrors, withAssetReferences } from './v2-prompt';
import { uploadAsset } from './v2-upload';
import type {
	ActiveJob,
	FileUpload,
	HashOffer,
	JobHandle,
	JobReading,
	JobStreamEnd,
	JobStreamSurface,
	StoredFile,
	SubmitFailure,
	SubmitRequest
} from './surface';

export type V2Dialect = 'managed' | 'deployment' | 'proxy';

/** A text output larger than this is offered as a download rather than shown. */
const TEXT_MAX_BYTES = 1 << 20;

/** How often, and how many times, a cancel is read back before it is reported as still stopping. */
const STOP_CHECKS = 6;
const STOP_CHECK_MS = 400;
/** How long to wait before reading an early `expired` again. */
const EXPIRED_RECHECK_MS = 1000;

export class V2Surface implements JobStreamSurface {
	readonly kind = 'v2' as const;
	readonly liveEvents = 'job-stream' as const;
	readonly streamsStarve: boolean;
	/** A deployment serves only `/api/v2`: the spec names no source of its node definitions. */
	readonly servesNodeDefinitions: boolean;
	private readonly api: string;
	private readonly credential: Credential;
	/** Text outputs already read, by asset id: a terminal job is read on every poll until the tracker lets go. */
	private readonly texts = new Map<string, string>();

	constructor(
		private readonly connection: Connection,
		readonly capabilities: Readonly<SurfaceCapabilities>,
		private readonly learn: (found: Partial<SurfaceCapabilities>) => void,
		readonly dialect: V2Dialect,
		/** Where node definitions come from: the proxy does not serve `object_info`, the ComfyUI behind it does. */
		private readonly objectInfoBase: string
	) {
		this.api = `${connection.profile.workflowUrl}/api/v2`;
		this.servesNodeDefinitions = dialect !== 'deployment';
		this.streamsStarve = dialect === 'proxy';
		this.credential = credentialFor(connection.key, 'bearer');
	}

	get profileId(): string {
		return this.connection.profile.id;
	}

	private async call(request: Omit<GuardedRequest, 'credential'>): Promise<Answer> {
		const answer = await callV2(this.connection, this.credential, request);
		const health = linkHealthOf(answer);
		if (health) this.connection.reportHealth?.(health);
		return answer;
	}

	private jobUrl(job: JobHandle): string {
		return job.links?.self ?? `${this.api}/jobs/${encodeURIComponent(job.promptId)}`;
	}

	private handleOf(job: V2Job): JobHandle {
		return { promptId: job.id, links: { self: job.urls.self, events: job.urls.events, cancel: job.urls.cancel } };
	}

	objectInfo(): Promise<Result<NodeDefinitions>> {
		const base = this.objectInfoBase;
		// Node definitions: the managed service serves v1's route beside v2; the proxy's ComfyUI does.
		const key = this.dialect === 'proxy' ? undefined : this.connection.key;
		return new WorkflowClient({ ...this.connection, key, profile: { ...this.connection.profile, workflowUrl: base } }).objectInfo();
	}

	async submit(request: SubmitRequest): Promise<Result<JobHandle, SubmitFailure>> {
		// Only the partner key goes in extra_data: the proxy accepts no other field. On the proxy the
		// profile's own key is the proxy's static token, not an account key: its Comfy account key is separate.
		const key = this.dialect === 'proxy' ? this.connection.partnerKey : this.connection.key;
		const body = JSON.stringify({
			workflow: withAssetReferences(request.prompt),
			...(request.partner && key ? { extra_data: { api_key_comfy_org: key } } : {})
		});
		const storedAt = Date.now();
		for (let attempt = 1; ; attempt++) {
			const answer = await this.call({
				url: `${this.api}/jobs`,
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Idempotency-Key': request.idempotencyKey },
				body
			});
			// On the proxy any reuse of a key is 422 (no replay): a key of ours it knows was sent before.
			const sentBefore = this.dialect === 'proxy';
			const step = afterSubmit(exchangeOf(answer), { attempt, sentBefore }, backoffDelay(attempt, SOCKET_BACKOFF, Math.random()));
			switch (step.next) {
				case 'accepted': {
					if (answer.kind !== 'answer') break;
					const job = parseV2Job(answer.json, answer.url);
					if (!job.ok)
						return fail({
							kind: 'error',
							error: appError('bad-response', `The job was accepted, but: ${job.reason}`, { status: answer.res.status })
						});
					return ok(this.handleOf(job.value));
				}
				case 'retry':
					await sleep(step.afterMs);
					continue;
				case 'find-recorded': {
					const found = await this.findRecorded(storedAt);
					return found.ok ? ok(found.value) : fail({ kind: 'error', error: found.error });
				}
				case 'rejected': {
					if (answer.kind !== 'answer') break;
					const nodeErrors = toNodeErrors(answer.envelope?.details ?? null, request.prompt);
					const error = errorOf(answer);
					return fail({
						kind: 'rejected',
						message: error.message,
						nodeErrors,
						status: answer.res.status,
						...(error.requestId ? { requestId: error.requestId } : {})
					});
				}
				case 'fail':
					break;
			}
			return fail({ kind: 'error', error: errorOf(answer) });
		}
	}

	/** A retry's 422 on the proxy: the first attempt was recorded. The newest job since the submit is it. */
	private async findRecorded(storedAt: number): Promise<Result<JobHandle>> {
		const answer = await this.call({ url: `${this.api}/jobs?limit=20` });
		if (answer.kind !== 'answer' || answer.res.status !== 200) return fail(errorOf(answer));
		const list = Array.isArray(answer.json)
			? answer.json
			: isObject(answer.json)
				? (arr(answer.json, 'jobs') ?? arr(answer.json, 'items') ?? [])
				: [];
		const jobs = list.flatMap((j) => {
			const job = parseV2Job(j, answer.url);
			return job.ok ? [job.value] : [];
		});
		const id = pickRecordedJob(
			jobs.map((j) => ({ id: j.id, createdAt: j.created_at })),
			storedAt,
			new Set()
		);
		const job = jobs.find((j) => j.id === id);
		return job
			? ok(this.handleOf(job))
			: fail(
					appError('not-found', 'The service says this run was sent before, but its job is not in the list: look for it in the timeline.')
				);
	}

	/** `GET urls.self`: the truth of the job, mapped to what the shared reducer folds. */
	async readJob(job: JobHandle): Promise<Result<V2Job | null>> {
		const answer = await this.call({ url: this.jobUrl(job) });
		if (answer.kind === 'answer' && answer.res.status === 404) return ok(null);
		if (answer.kind !== 'answer' || answer.res.status !== 200) return fail(errorOf(answer));
		const parsed = parseV2Job(answer.json, answer.url);
		return parsed.ok ? ok(parsed.value) : fail(appError('bad-response', parsed.reason, { status: 200 }));
	}

	async read(job: JobHandle): Promise<Result<JobReading>> {
		let read = await this.readJob(job);
		// The proxy reads ComfyUI's history, then its queue: a job that finishes between the two reads as
		// `expired` for that one answer (seen on the real pair). An `expired` before the deadline is read again.
		if (read.ok && read.value?.status === 'expired' && Date.now() < Date.parse(read.value.expires_at)) {
			await sleep(EXPIRED_RECHECK_MS);
			read = await this.readJob(job);
		}
		if (!read.ok) return read;
		const v2 = read.value;
		if (!v2) return ok({ kind: 'not-found' });
		const state = jobStateOf(v2.status);
		const terminal = TERMINAL_JOB_STATUSES.includes(v2.status);
		return ok({
			kind: 'status',
			state,
			history: terminal ? historyOf(v2, await this.textsOf(v2.outputs)) : null,
			...(v2.status === 'canceling' ? { canceling: true } : {})
		});
	}

	async activeJobs(): Promise<Result<ActiveJob[]>> {
		// Only the proxy lists jobs; on the managed service the v1 socket of the same account tells of them.
		if (this.dialect !== 'proxy') return ok([]);
		// One read for both (the proxy takes a comma-separated filter): the list is the app's steady poll of the proxy.
		const answer = await this.call({ url: `${this.api}/jobs?status=running,queued&limit=50` });
		if (answer.kind !== 'answer' || answer.res.status !== 200) return fail(errorOf(answer));
		const list = Array.isArray(answer.json) ? answer.json : isObject(answer.json) ? (arr(answer.json, 'jobs') ?? []) : [];
		const active: ActiveJob[] = [];
		for (const item of list) {
			const job = parseV2Job(item, answer.url);
			if (job.ok && (job.value.status === 'running' || job.value.status === 'queued'))
				active.push({ promptId: job.value.id, position: job.value.queue_position ?? 0, running: job.value.status === 'running' });
		}
		return ok(active);
	}

	async cancel(jobs: JobHandle[]): Promise<Result<void>> {
		for (const job of jobs) {
			const url = job.links?.cancel ?? `${this.jobUrl(job)}/cancel`;
			const answer = await this.call({ url, method: 'POST' });
			if (answer.kind !== 'answer' || (answer.res.status !== 200 && answer.res.status !== 404)) return fail(errorOf(answer));
		}
		return ok(undefined);
	}

	interrupt(job?: JobHandle): Promise<Result<void>> {
		return job ? this.cancel([job]) : Promise.resolve(ok(undefined));
	}

	/** The v2 contract has no batch cancel: each job by its own cancel link, read back. */
	async cancelMany(jobs: JobHandle[]): Promise<Result<CancelManyReport>> {
		return ok(await cancelOneByOne(this, jobs));
	}

	/** The v2 contract deletes no job records. */
	async deleteHistory(): Promise<Result<ServerHistoryDelete>> {
		return fail(appError('not-found', 'This server keeps no history that Runboard can delete.'));
	}

	/** No `/system_stats` in the v2 contract. */
	async serverVersion(): Promise<Result<string | null>> {
		return ok(null);
	}

	/** Cancels through the job's own link, then reads the job back: `canceling` lasts until the worker lets go. */
	async stop(job: JobHandle): Promise<Result<StopOutcome>> {
		// Whether the job had started, read before the cancel: the proxy leaves `started_at` null, and a
		// running job's cancel there may come back `canceled` at once.
		const before = await this.readJob(job);
		const hadStarted = before.ok && before.value !== null && (before.value.status !== 'queued' || before.value.started_at !== null);
		const answer = await this.call({ url: job.links?.cancel ?? `${this.jobUrl(job)}/cancel`, method: 'POST' });
		if (answer.kind !== 'answer' || (answer.res.status !== 200 && answer.res.status !== 404)) return fail(errorOf(answer));
		const answered = answer.res.status === 200 ? parseV2Job(answer.json, answer.url) : null;
		return this.readBack(job, 'job-cancel', answered?.ok ? answered.value.status : null, hadStarted);
	}

	/**
	 * The proxy's own cancel does not stop a job on ComfyUI 0.3.64; an interrupt sent to the ComfyUI
	 * behind it (the profile's address) does, at the end of the current node. Read back through the proxy.
	 */
	async interruptBehind(job: JobHandle): Promise<Result<StopOutcome>> {
		const behind = this.behind();
		if (!behind) return fail(appError('not-found', 'This profile names no ComfyUI behind its server to interrupt.'));
		const client = new WorkflowClient({ ...this.connection, key: undefined, profile: { ...this.connection.profile, workflowUrl: behind } });
		const sent = await client.interrupt(job.promptId);
		if (!sent.ok) return sent;
		return this.readBack(job, 'interrupt-behind', null, true);
	}

	/** The ComfyUI behind a self-hosted proxy, where an interrupt works; null on the other surfaces. */
	private behind(): string | null {
		return this.dialect === 'proxy' ? this.objectInfoBase : null;
	}

	private async readBack(job: JobHandle, via: StopRoute, answered: JobStatus | null, hadStarted: boolean): Promise<Result<StopOutcome>> {
		for (let attempt = 0; ; attempt++) {
			const read = await this.readJob(job);
			if (!read.ok) return read;
			const v2 = read.value;
			if (!v2) return fail(appError('not-found', 'The service no longer knows this job.'));
			const started = hadStarted || v2.started_at !== null;
			const step = afterCancelRead({
				answered,
				read: v2.status,
				hadStarted: started,
				via,
				attempt,
				checks: STOP_CHECKS,
				behind: this.behind()
			});
			if (step !== 'wait') return ok(step);
			await new Promise<void>((resolve) => setTimeout(resolve, STOP_CHECK_MS));
		}
	}

	/** The content of each `text` output that could be read, by asset id (the rest stay downloads). */
	async textsOf(outputs: readonly V2Output[], signal?: AbortSignal): Promise<Map<string, string>> {
		const texts = new Map<string, string>();
		for (const o of outputs) {
			if (o.type !== 'text') continue;
			const text = await this.textOf(o, signal);
			if (text !== undefined) texts.set(o.id, text);
		}
		return texts;
	}

	/** A `text` output's content, read once through `/assets/{id}/content` like any output (never from a storage link). */
	async textOf(output: Pick<V2Output, 'id' | 'size_bytes'>, signal?: AbortSignal): Promise<string | undefined> {
		const known = this.texts.get(output.id);
		if (known !== undefined || output.size_bytes > TEXT_MAX_BYTES) return known;
		const bytes = await this.outputBytes({ filename: output.id, subfolder: '', type: 'output' }, signal);
		if (!bytes.ok || bytes.value.size > TEXT_MAX_BYTES) return undefined;
		const text = await bytes.value.text();
		this.texts.set(output.id, text);
		return text;
	}

	/**
	 * An output's bytes through `/assets/{id}/content`. The managed service redirects to a signed
	 * storage URL: the browser drops the Bearer key on that hop. A drop mid-body resumes with `Range`
	 * (large videos); where a range is refused (the proxy's 502 `upstream_error`), the whole content.
	 */
	async outputBytes(ref: FileRef, signal?: AbortSignal): Promise<Result<Blob>> {
		// An output names its asset by id; an input the form chose, by its prompt name (`core/ASSET:<id>`).
		const id = ref.filename.startsWith(ASSET_NAME_PREFIX) ? ref.filename.slice(ASSET_NAME_PREFIX.length) : ref.filename;
		const url = `${this.api}/assets/${encodeURIComponent(id)}/content`;
		return downloadResuming(
			(from, onChunk) =>
				this.connection.fetch({
					url,
					credential: this.credential,
					redirect: 'follow-without-credentials',
					...(from !== null ? { headers: { Range: `bytes=${from}-` } } : {}),
					onChunk,
					timeoutMs: 10 * 60_000,
					...(signal ? { signal } : {})
				}),
			{ errorOf: (res) => v2ErrorOf(res.status, parseV2Envelope(tryParseJson(res.body))), ...(signal ? { signal } : {}) }
		);
	}

	async offerHash(hash: string, name: string, _mime: string, signal?: AbortSignal): Promise<Result<HashOffer>> {
		const answer = await this.call({
			url: `${this.api}/assets/from-hash`,
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ hash: `blake3:${hash}`, file_path: name }),
			...(signal ? { signal } : {})
		});
		const step = afterFromHash(exchangeOf(answer));
		if (step.next === 'upload') return ok({ kind: 'unknown' });
		if (step.next === 'fail' || answer.kind !== 'answer') return fail(errorOf(answer));
		const asset = parseV2Asset(answer.json, answer.url);
		return asset.ok ? ok({ kind: 'known', name: assetInputName(asset.value.id) }) : fail(appError('bad-response', asset.reason));
	}

	uploadFile(upload: FileUpload): Promise<Result<StoredFile>> {
		return uploadAsset(this.connection, this.credential, this.api, upload);
	}

	/**
	 * Reads the job's event stream once, to its end. `ended`: the server closed it (after the
	 * terminal status and any outputs that follow); `refused`: 429 (poll instead, after the wait);
	 * `error`: no answer or a drop mid-stream (reconnect with backoff). Stall detection is the
	 * caller's: it aborts `signal` when `onActivity` stops being called.
	 */
	async stream(
		job: JobHandle,
		onEvent: (event: V2StreamEvent) => void,
		onActivity: () => void,
		signal: AbortSignal
	): Promise<JobStreamEnd> {
		const url = job.links?.events ?? `${this.jobUrl(job)}/events`;
		const reader = createV2EventReader(url, onEvent, onActivity);
		const res = await this.connection.fetch({
			url,
			credential: this.credential,
			headers: { Accept: 'text/event-stream' },
			onChunk: (chunk) => reader.feed(chunk),
			signal,
			timeoutMs: 24 * 3600_000
		});
		reader.end();
		if (!res.ok) return { kind: 'error', error: res.error };
		const envelope = res.value.status >= 400 ? parseV2Envelope(tryParseJson(res.value.body)) : null;
		const health = linkHealthOf({ kind: 'answer', res: res.value, url, json: undefined, envelope });
		if (health) this.connection.reportHealth?.(health);
		if (res.value.status === 429) return { kind: 'refused', retryAfterMs: retryAfterMs(res.value.header('Retry-After')) };
		if (res.value.status === 404) return { kind: 'gone' };
		if (res.value.status !== 200) return { kind: 'error', error: v2ErrorOf(res.value.status, envelope) };
		return { kind: 'ended' };
	}

	/** Marks a route as missing on this server (kept for the connection test's probe). */
	forget(found: Partial<SurfaceCapabilities>): void {
		this.learn(found);
	}
}
