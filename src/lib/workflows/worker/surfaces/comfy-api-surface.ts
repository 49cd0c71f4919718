/**
 * The routes of ComfyUI's HTTP API, which the cloud service's v1 mirrors (spec A): the common
 * ground of the cloud-v1 and local-ComfyUI adapters. Every route that a server may lack is used
 * only when its capability flag says so, and an answer that shows it missing turns the flag off.
 */
import { credentialFor } from '../../../core/rules/credential';
import { appError, fail, ok, type Result } from '../../../core/protocol/errors';
import type { NodeDefinitions } from '../../protocol/object-info';
import { readJson } from '../../../core/rules/http-response';
import { isObject, str } from '../../../core/protocol/json';
import type { FileRef } from '../../protocol/workflow-api';
import type { Connection } from '../../../core/worker/context';
import { WorkflowClient } from '../workflow-client';
import type { SurfaceCapabilities, SurfaceKind } from './capabilities';
import type { CancelManyReport, JobCancelResult, ServerHistoryDelete } from '../../protocol/api';
import { cancelOneByOne, notActive, reportOf, settleOne, waitingFirst } from './cancel-many';
import type {
	ActiveJob,
	FileUpload,
	HashOffer,
	JobHandle,
	JobReading,
	StopOutcome,
	StopRoute,
	StoredFile,
	SubmitFailure,
	SubmitRequest,
	WorkflowSurface
} from './surface';

const STOP_CHECKS = 6;
const STOP_CHECK_MS = 400;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const TERMINAL_JOB_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export abstract class ComfyApiSurface implements WorkflowSurface {
	abstract readonly kind: SurfaceKind;
	readonly liveEvents = 'profile-socket' as const;
	readonly servesNodeDefinitions = true;
	protected readonly client: WorkflowClient;

	constructor(
		protected readonly connection: Connection,
		readonly capabilities: Readonly<SurfaceCapabilities>,
		/** Remembers what an answer showed about the server's routes. */
		protected readonly learn: (found: Partial<SurfaceCapabilities>) => void
	) {
		this.client = new WorkflowClient(connection);
	}

	get profileId(): string {
		return this.connection.profile.id;
	}

	objectInfo(): Promise<Result<NodeDefinitions>> {
		return this.client.objectInfo();
	}

	async submit(request: SubmitRequest): Promise<Result<JobHandle, SubmitFailure>> {
		const key = this.connection.key;
		const extraData: Record<string, unknown> = request.partner && key ? { api_key_service_org: key } : {};
		if (request.extraPngInfo) extraData['extra_pnginfo'] = request.extraPngInfo;
		const answer = await this.client.submit(request.prompt, request.promptId, request.clientId, extraData);
		return answer.ok ? ok({ promptId: answer.value.promptId }) : answer;
	}

	async read(job: JobHandle): Promise<Result<JobReading>> {
		if (this.capabilities.jobStatus) {
			const state = await this.client.jobState(job.promptId);
			if (!state.ok) return state;
			if (state.value === 'not-found') return ok({ kind: 'not-found' });
			if (state.value !== 'unsupported') {
				if (!TERMINAL_JOB_STATES.has(state.value)) return ok({ kind: 'status', state: state.value, history: null });
				// Terminal: the history holds the outputs (the source of truth) and how the job ended (a job
				// status `cancelled` is also an interrupted one): an unanswered read is no answer, tried again.
				const history = await this.client.history(job.promptId);
				if (!history.ok) return history;
				return ok({ kind: 'status', state: state.value, history: history.value });
			}
			this.learn({ jobStatus: false });
		}
		const history = await this.client.history(job.promptId);
		if (!history.ok) return history;
		if (history.value) return ok({ kind: 'history', entry: history.value });
		const active = await this.activeJobs();
		if (!active.ok) return active;
		const listed = active.value.find((j) => j.promptId === job.promptId);
		if (listed) return ok({ kind: 'waiting', running: listed.running });
		// A job that ended between the two reads is in neither: the server moves it from its queue to its
		// history at once, so a second look at the history tells an ended job from one that is gone.
		const again = await this.client.history(job.promptId);
		if (!again.ok) return again;
		return ok(again.value ? { kind: 'history', entry: again.value } : { kind: 'vanished' });
	}

	async activeJobs(): Promise<Result<ActiveJob[]>> {
		const queue = await this.client.queue();
		if (!queue.ok) return queue;
		const job = (running: boolean) => (item: (typeof queue.value.queue_running)[number]) => ({
			promptId: item[1],
			position: item[0],
			running,
			...(item[2] ? { prompt: item[2] } : {})
		});
		return ok([...queue.value.queue_running.map(job(true)), ...queue.value.queue_pending.map(job(false))]);
	}

	async stop(job: JobHandle): Promise<Result<StopOutcome>> {
		const before = await this.activeJobs();
		if (!before.ok) return before;
		const entry = before.value.find((j) => j.promptId === job.promptId);
		if (!entry) return ok({ kind: 'finished-first' });
		let via: StopRoute | null = null;
		if (this.capabilities.jobCancel) {
			const sent = await this.client.cancelJob(job.promptId);
			if (!sent.ok) return sent;
			if (sent.value === 'unsupported') this.learn({ jobCancel: false });
			else via = 'job-cancel';
		}
		if (!via) {
			// ComfyUI's queue delete ignores the running job: a running job is interrupted instead.
			const sent = entry.running ? await this.client.interrupt(job.promptId) : await this.client.deleteFromQueue([job.promptId]);
			if (!sent.ok) return sent;
			via = entry.running ? 'interrupt' : 'queue-delete';
		}
		// Read back what happened: a running job stops at its next checkpoint, so give it a moment.
		for (let attempt = 0; ; attempt++) {
			const after = await this.activeJobs();
			if (!after.ok) return after;
			const still = after.value.find((j) => j.promptId === job.promptId);
			if (!still) break;
			if (!still.running && !entry.running) return ok({ kind: 'still-waiting', via });
			if (attempt >= STOP_CHECKS) return ok({ kind: still.running ? 'stopping' : 'still-waiting', via });
			await sleep(STOP_CHECK_MS);
		}
		if (!entry.running) return ok({ kind: 'removed', via });
		const history = await this.client.history(job.promptId);
		const messages = history.ok && history.value ? history.value.status.messages : [];
		if (messages.some(([type]) => type === 'execution_interrupted')) return ok({ kind: 'interrupted', via });
		return ok(history.ok && history.value ? { kind: 'finished-first' } : { kind: 'interrupted', via });
	}

	/**
	 * Many jobs: one `POST /api/jobs/cancel` where the server has it, read back from its queue and history;
	 * else one by one, waiting jobs first (each by the queue delete), then running ones (as `stop`).
	 */
	async cancelMany(jobs: JobHandle[]): Promise<Result<CancelManyReport>> {
		const before = await this.activeJobs();
		if (!before.ok) return before;
		const active = new Map(before.value.map((j) => [j.promptId, j]));
		const listed = waitingFirst(
			jobs.filter((j) => active.has(j.promptId)),
			active
		);
		const ended = notActive(jobs, active);
		if (listed.length === 0) return reportOf('one-by-one', ended);
		if (this.capabilities.batchCancel) {
			const sent = await this.client.cancelJobs(listed.map((j) => j.promptId));
			if (!sent.ok) return sent;
			if (sent.value === 'sent') {
				const settled = await this.readBackMany(listed, active, 'job-cancel');
				return settled.ok ? reportOf('batch', [...settled.value, ...ended]) : settled;
			}
			this.learn({ batchCancel: false });
		}
		const report = await cancelOneByOne(this, listed);
		return reportOf('one-by-one', [...report.jobs, ...ended]);
	}

	/** After a cancel of `jobs`, the queue read until they are gone (or a few tries), then each job's outcome. */
	private async readBackMany(
		jobs: JobHandle[],
		before: ReadonlyMap<string, ActiveJob>,
		via: StopRoute
	): Promise<Result<JobCancelResult[]>> {
		let after: Map<string, ActiveJob> = new Map();
		for (let attempt = 0; ; attempt++) {
			const read = await this.activeJobs();
			if (!read.ok) return read;
			after = new Map(read.value.map((j) => [j.promptId, j]));
			if (jobs.every((j) => !after.has(j.promptId)) || attempt >= STOP_CHECKS) break;
			await sleep(STOP_CHECK_MS);
		}
		const results: JobCancelResult[] = [];
		for (const job of jobs) {
			const was = before.get(job.promptId)!;
			const now = after.get(job.promptId);
			const history = !now && was.running ? await this.client.history(job.promptId) : undefined;
			results.push({ promptId: job.promptId, outcome: settleOne(was, now, history?.ok ? history.value : null, via) });
		}
		return ok(results);
	}

	/** Deletes finished jobs from ComfyUI's history (`POST /api/history {delete}`), then reads each entry back. */
	async deleteHistory(jobs: JobHandle[]): Promise<Result<ServerHistoryDelete>> {
		if (!this.capabilities.historyDelete) return fail(appError('not-found', 'This server keeps no history that Runboard can delete.'));
		const ids = jobs.map((j) => j.promptId);
		const sent = await this.client.deleteHistory(ids);
		if (!sent.ok) return sent;
		const deleted: string[] = [];
		const kept: string[] = [];
		for (const id of ids) {
			const entry = await this.client.history(id);
			if (entry.ok && entry.value === null) deleted.push(id);
			else kept.push(id);
		}
		return ok({ deleted, kept });
	}

	serverVersion(): Promise<Result<string | null>> {
		return this.client.serverVersion();
	}

	cancel(jobs: JobHandle[]): Promise<Result<void>> {
		return this.client.deleteFromQueue(jobs.map((j) => j.promptId));
	}

	interrupt(job?: JobHandle): Promise<Result<void>> {
		return this.client.interrupt(job?.promptId);
	}

	outputBytes(ref: FileRef): Promise<Result<Blob>> {
		return this.client.viewBlob(ref);
	}

	async offerHash(hash: string, name: string, mime: string, signal?: AbortSignal): Promise<Result<HashOffer>> {
		if (!this.capabilities.fromHash) return ok({ kind: 'unsupported' });
		const offer = await this.client.fromHash(hash, name, mime, signal);
		if (offer.ok && offer.value.kind === 'unsupported') this.learn({ fromHash: false });
		return offer;
	}

	async uploadFile(upload: FileUpload): Promise<Result<StoredFile>> {
		const form = new FormData();
		form.append('image', upload.file, upload.name);
		form.append('type', 'input');
		form.append('subfolder', '');
		form.append('overwrite', 'false');
		if (upload.mask) form.append('original_ref', JSON.stringify(upload.mask.originalRef));
		const endpoint = upload.mask ? '/api/upload/mask' : '/api/upload/image';
		const res = await this.connection.upload({
			url: `${this.connection.profile.workflowUrl}${endpoint}`,
			form,
			credential: credentialFor(this.connection.key, 'x-api-key'),
			onProgress: upload.onProgress,
			...(upload.signal ? { signal: upload.signal } : {})
		});
		if (!res.ok) return res;
		const body = readJson(res.value, 'workflow');
		if (!body.ok) return body;
		const name = isObject(body.value) ? str(body.value, 'name') : undefined;
		if (!name) return fail(appError('bad-response', 'The upload was accepted but the answer has no file name.'));
		const type = isObject(body.value) ? str(body.value, 'type') : undefined;
		return ok({
			name,
			subfolder: (isObject(body.value) && str(body.value, 'subfolder')) || '',
			type: type === 'temp' || type === 'output' ? type : 'input'
		});
	}
}
