/**
 * Model runs, synchronous and queued, driven by the idempotency rules of the spec: the key is
 * created and saved with the model id and body BEFORE the first send, every attempt reuses it with
 * the same credential, only the explicit hints retry automatically (409 concurrency_limit_exceeded
 * and 504 with Retry-After; a call that got no answer is re-sent under the same key a few times),
 * and a consumed or expired key ends as "outcome unknown" without ever starting a new key.
 */
import { backoffDelay } from '../../domain/backoff';
import { appError, fail, ok, type AppError, type Result } from '../../domain/errors';
import { readJson, requestIdOf, responseError, type RawResponse } from '../../domain/http-response';
import { withRouterWords } from '../../domain/model-errors';
import {
	decideSync,
	isModelTerminal,
	keyExpired,
	MAX_BLIND_RETRIES,
	MODEL_RUN_VERSION,
	OUTCOME_UNKNOWN,
	queueFinished,
	retryAfterSeconds,
	spendOf,
	titleOf,
	type ModelResult,
	type ModelRun,
	type QueueHandle,
	OUTBOX_PHASE
} from '../../domain/model-run';
import { arr, isObject, num, str } from '../../wire/json';
import type { StartModelRunInput } from './api';
import type { WorkerContext } from '../context';
import type { RouterModelListEntry } from '../../wire/router-api';
import type { ModelDeps } from './model-service';
import { fetchAsset, storeResult, type AssetFetch } from './result-store';
import { modelUrl, routerClient, type RouterClient } from './router-client';
import type { GuardedResponse } from '../guarded-fetch';

interface BytesResponse {
	raw: GuardedResponse;
	bytes: Uint8Array;
}

const withBytes = (res: Result<GuardedResponse>): Result<BytesResponse> =>
	res.ok ? ok({ raw: res.value, bytes: res.value.bytes ?? new Uint8Array(0) }) : res;
import { RunRepo } from './run-repo';
import { Slots, SYNC_HELD_OPEN_CAP } from './slots';

/** Above the service's 10-minute hold, so its typed 504 and request id arrive first. */
export const SYNC_TIMEOUT_MS = 11 * 60 * 1000;
const POLL_DEFAULT_MS = 2000;
const POLL_MIN_MS = 250;
const NO_ANSWER_BACKOFF = { baseMs: 1000, maxMs: 15_000 };

function errorTypeOf(raw: RawResponse): string | undefined {
	const h = raw.header('X-Service-Error-Type');
	if (h) return h;
	const json = readJson({ ...raw, status: 200 }, 'router');
	return json.ok && isObject(json.value) ? str(json.value, 'error_type') : undefined;
}

function noAnswer(error: AppError): boolean {
	return error.kind === 'network' || error.kind === 'cors' || error.kind === 'timeout';
}

export interface RunServiceDeps extends ModelDeps {
	newId(): string;
	getAsset?: AssetFetch;
}

export class RunService {
	readonly repo: RunRepo;
	readonly slots = new Slots(SYNC_HELD_OPEN_CAP);
	private readonly aborts = new Map<string, AbortController>();
	private readonly driving = new Map<string, Promise<void>>();
	/** Outbox runs being released right now. */
	private readonly releasing = new Set<string>();

	constructor(
		private readonly ctx: WorkerContext,
		private readonly deps: RunServiceDeps,
		/** A model's catalog facts (its policy-charge rule), from the catalog or the detail route. */
		private readonly entryOf: (profileId: string, modelId: string) => Promise<RouterModelListEntry | undefined>
	) {
		this.repo = new RunRepo(ctx);
	}

	// ---- API ---------------------------------------------------------------------------------

	async start(input: StartModelRunInput): Promise<Result<ModelRun>> {
		await this.ctx.ready();
		if (!isObject(input.body)) return fail(appError('invalid-input', 'The model input must be a JSON object.'));
		const client = await routerClient(this.ctx, input.profileId);
		if (!client.ok) return client;
		const now = this.deps.now();
		const run: ModelRun = {
			schemaVersion: MODEL_RUN_VERSION,
			kind: 'model',
			id: this.deps.newId(),
			profileId: input.profileId,
			modelId: input.modelId,
			title: titleOf(input.modelId, input.body),
			mode: input.mode,
			body: input.body,
			idempotencyKey: this.deps.newId(),
			keyCreatedAt: now,
			status: 'submitting',
			attempts: 0,
			replayed: false,
			createdAt: now,
			...(input.seeds ? { seeds: input.seeds } : {})
		};
		const offline = input.offline === true || (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine === false;
		if (offline) Object.assign(run, { outbox: true, phase: OUTBOX_PHASE });
		// The key, model id and body are saved before anything is sent.
		await this.repo.save(run);
		await this.repo.saveInputs(input.profileId, input.modelId, input.body);
		if (!offline) this.drive(run.id);
		return ok(run);
	}

	/**
	 * Sends the runs composed offline, once each. Only the leader tab calls this, so two tabs never
	 * send the same run; the flag is cleared and saved before the send, and the key's retention
	 * clock starts now, at its first use.
	 */
	async sendOutbox(): Promise<number> {
		if (!this.ctx.isLeader() || (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine === false) return 0;
		let sent = 0;
		for (const run of await this.repo.list()) {
			// Several triggers can fire together (the page's wake, another tab's, the worker's own 'online'):
			// the check and the claim happen with no await between them.
			if (!run.outbox || isModelTerminal(run.status) || this.driving.has(run.id) || this.releasing.has(run.id)) continue;
			this.releasing.add(run.id);
			try {
				const released = await this.update(run.id, { outbox: false, phase: undefined, keyCreatedAt: this.deps.now() });
				if (!released) continue;
				this.drive(run.id);
				sent++;
			} finally {
				this.releasing.delete(run.id);
			}
		}
		return sent;
	}

	/** Sends again under the SAME key (a person's choice after no answer, or after stopping waiting). */
	async retry({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run) return fail(appError('not-found', 'This run is no longer saved.'));
		if (this.driving.has(id)) return ok(run);
		if (keyExpired(run, this.deps.now()))
			return ok(
				await this.unknown(
					run,
					undefined,
					'The idempotency key is past its 24-hour retention, so a retry could start a second billable run.'
				)
			);
		const { error: _e, stoppedWaiting: _s, phase: _p, ...rest } = run;
		const again = await this.repo.save({ ...rest, status: run.queue ? 'queued' : 'submitting' });
		this.drive(again.id);
		return ok(again);
	}

	async stopWaiting({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run) return fail(appError('not-found', 'This run is no longer saved.'));
		if (isModelTerminal(run.status)) return ok(run);
		const saved = await this.repo.save({
			...run,
			status: 'unknown',
			stoppedWaiting: true,
			phase: undefined,
			finishedAt: this.deps.now(),
			error: appError(
				'timeout',
				'You stopped waiting. The provider may still finish this run and charge for it; "Retry with the same key" collects its result without starting a new run.'
			)
		});
		this.aborts.get(id)?.abort();
		return ok(saved);
	}

	async cancel({ id }: { id: string }): Promise<Result<ModelRun>> {
		const run = await this.repo.get(id);
		if (!run?.queue)
			return fail(appError('invalid-input', 'Only a queued request can be cancelled; a synchronous run can only stop being waited for.'));
		const client = await routerClient(this.ctx, run.profileId);
		if (!client.ok) return client;
		const guard = this.ownOrigin(client.value, run.queue.cancelUrl);
		if (guard) return fail(guard);
		const res = await client.value.fetch({ url: run.queue.cancelUrl, method: 'PUT', credential: client.value.credential });
		if (!res.ok) return fail(res.error);
		const latest = (await this.repo.get(id)) ?? run;
		if (res.value.status === 202 || res.value.status === 409) {
			const json = readJson({ ...res.value, status: 200 }, 'router');
			const status = json.ok && isObject(json.value) ? str(json.value, 'status') : undefined;
			const already = res.value.status === 409 || status === 'ALREADY_COMPLETED';
			const queue: QueueHandle = { ...(latest.queue ?? run.queue), cancel: already ? 'already-completed' : 'requested' };
			return ok(
				await this.repo.save({
					...latest,
					queue,
					phase: already
						? 'The request had already finished; its result stands.'
						: 'Cancel requested. A run already at the provider may still finish and be charged.'
				})
			);
		}
		return fail(withRouterWords(responseError(res.value, 'router')));
	}

	/** Re-attaches unfinished runs after a reload: queued ones by request id, synchronous ones under their key. */
	async resume(): Promise<number> {
		let n = 0;
		for (const run of await this.repo.list()) {
			if (isModelTerminal(run.status) || this.driving.has(run.id) || run.outbox) continue;
			this.drive(run.id);
			n++;
		}
		return n + (await this.sendOutbox());
	}

	/** Resolves when a run's driver stops (tests, benchmarks). */
	async settled(id: string): Promise<ModelRun | undefined> {
		await this.driving.get(id);
		return this.repo.get(id);
	}

	// ---- driving -----------------------------------------------------------------------------

	private drive(id: string): void {
		const done = this.driveOnce(id)
			.catch(async (error: unknown) => {
				const run = await this.repo.get(id);
				if (run && !isModelTerminal(run.status))
					await this.repo.save({
						...run,
						status: 'failed',
						phase: undefined,
						error: appError('unknown', `The run stopped on an unexpected error: ${String(error)}`)
					});
			})
			.finally(() => this.driving.delete(id));
		this.driving.set(id, done);
	}

	private async driveOnce(id: string): Promise<void> {
		const run = await this.repo.get(id);
		if (!run || isModelTerminal(run.status)) return;
		const client = await routerClient(this.ctx, run.profileId);
		if (!client.ok) {
			await this.repo.save({ ...run, status: 'failed', error: client.error });
			return;
		}
		if (run.mode === 'sync') return this.driveSync(run, client.value);
		if (!run.queue) {
			const submitted = await this.submit(run, client.value);
			if (!submitted) return;
			return this.poll(submitted, client.value);
		}
		return this.poll(run, client.value);
	}

	private async update(id: string, patch: Partial<ModelRun>): Promise<ModelRun | undefined> {
		const run = await this.repo.get(id);
		if (!run) return undefined;
		// A person's "stop waiting" wins over whatever the driver learns later.
		if (run.stoppedWaiting && isModelTerminal(run.status)) return undefined;
		return this.repo.save({ ...run, ...patch });
	}

	private async unknown(run: ModelRun, raw: RawResponse | undefined, why = OUTCOME_UNKNOWN): Promise<ModelRun> {
		const error = appError('invalid-input', why, {
			...(raw ? { status: raw.status, requestId: requestIdOf(raw), errorType: errorTypeOf(raw) } : {})
		});
		return this.repo.save({ ...run, status: 'unknown', phase: undefined, finishedAt: this.deps.now(), error });
	}

	private async failWith(run: ModelRun, raw: RawResponse, retryAfter: number | undefined): Promise<void> {
		const entry = await this.entryOf(run.profileId, run.modelId);
		const error = withRouterWords(responseError(raw, 'router'), {
			...(entry ? { chargesOnPolicyRejection: entry.billing.charges_on_policy_rejection } : {}),
			...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {})
		});
		const cancelled = error.errorType === 'cancelled';
		await this.update(run.id, {
			status: cancelled ? 'cancelled' : 'failed',
			phase: undefined,
			finishedAt: this.deps.now(),
			error,
			requestId: error.requestId ?? run.requestId
		});
	}

	private async fieldErrors(run: ModelRun, raw: RawResponse): Promise<void> {
		const json = readJson({ ...raw, status: 200 }, 'router');
		const entries = json.ok && isObject(json.value) ? (arr(json.value, 'detail') ?? []) : [];
		const fieldErrors = entries.filter(isObject).map((e) => ({
			loc: (Array.isArray(e['loc']) ? e['loc'] : []).filter((s): s is string | number => typeof s === 'string' || typeof s === 'number'),
			msg: str(e, 'msg') ?? 'Rejected.'
		}));
		const error = appError(
			'invalid-input',
			'The service rejected some inputs before calling the model (not billed). See the marked fields.',
			{
				status: raw.status,
				requestId: requestIdOf(raw),
				errorType: raw.header('X-Service-Error-Type') ?? 'invalid_input'
			}
		);
		await this.update(run.id, { status: 'failed', phase: undefined, finishedAt: this.deps.now(), error, fieldErrors });
	}

	private async noteSpend(run: ModelRun, raw: RawResponse): Promise<void> {
		const spend = spendOf(raw.header, this.deps.now());
		if (!spend) return;
		await this.repo.saveSpend(run.profileId, spend);
		await this.update(run.id, { spend });
	}

	private async succeed(run: ModelRun, res: BytesResponse): Promise<void> {
		const contentType = res.raw.header('Content-Type') ?? 'application/octet-stream';
		let result: ModelResult;
		let phase: string | undefined;
		try {
			result = await storeResult(this.ctx.kv, run.id, res.bytes, contentType, this.deps.getAsset ?? fetchAsset);
		} catch (error) {
			// The run succeeded (and was charged) even when this device cannot keep its bytes (storage full).
			result = { contentType, size: res.bytes.byteLength, bytesKey: '', assets: [] };
			phase = `The result could not be saved on this device (${String(error)}); free some space and retry with the same key to collect it again while the service keeps it.`;
		}
		const credits = res.raw.header('X-Service-Credits-Used');
		await this.update(run.id, {
			status: 'succeeded',
			phase,
			finishedAt: this.deps.now(),
			result,
			replayed: run.replayed || res.raw.header('Idempotent-Replayed') === 'true',
			requestId: requestIdOf(res.raw) ?? run.requestId,
			...(credits !== null && /^\d+$/.test(credits.trim()) ? { creditsUsed: Number(credits) } : {})
		});
	}

	private async driveSync(start: ModelRun, client: RouterClient): Promise<void> {
		let run = start;
		let blind = 0;
		for (;;) {
			if (keyExpired(run, this.deps.now())) {
				await this.unknown(
					run,
					undefined,
					'The idempotency key is past its 24-hour retention, so a retry could start a second billable run.'
				);
				return;
			}
			if (this.slots.busy >= this.slots.size)
				run =
					(await this.update(run.id, {
						phase: `Waiting for a free connection: ${this.slots.size} synchronous calls are already held open.`
					})) ?? run;
			const release = await this.slots.acquire();
			const abort = new AbortController();
			this.aborts.set(run.id, abort);
			let res: Result<BytesResponse>;
			try {
				const now = this.deps.now();
				const sending = await this.update(run.id, {
					status: 'running',
					attempts: run.attempts + 1,
					startedAt: run.startedAt ?? now,
					phase: run.attempts > 0 ? 'Sent again under the same key; waiting for the model.' : 'Waiting for the model.'
				});
				if (!sending) return;
				run = sending;
				res = withBytes(
					await client.fetch({
						read: 'bytes',
						url: modelUrl(client.base, run.modelId),
						method: 'POST',
						headers: { 'Content-Type': 'application/json', 'Idempotency-Key': run.idempotencyKey },
						body: JSON.stringify(run.body),
						credential: client.credential,
						timeoutMs: SYNC_TIMEOUT_MS,
						signal: abort.signal
					})
				);
			} finally {
				release();
				this.aborts.delete(run.id);
			}
			const latest = await this.repo.get(run.id);
			if (!latest || latest.stoppedWaiting) return;
			run = latest;
			if (!res.ok) {
				if (!noAnswer(res.error) || blind >= MAX_BLIND_RETRIES) {
					await this.update(run.id, {
						status: 'failed',
						phase: undefined,
						finishedAt: this.deps.now(),
						error: {
							...res.error,
							message: `${res.error.message} The run may still have happened: "Retry with the same key" asks again without starting a new run.`
						}
					});
					return;
				}
				const wait = backoffDelay(blind, NO_ANSWER_BACKOFF, this.deps.random());
				blind++;
				run =
					(await this.update(run.id, {
						phase: `No answer (${res.error.message}). Sending again under the same key in ${Math.ceil(wait / 1000)} s.`
					})) ?? run;
				await this.deps.sleep(wait);
				continue;
			}
			const raw = res.value.raw;
			await this.noteSpend(run, raw);
			const retryAfter = retryAfterSeconds(raw.header('Retry-After'));
			const decision = decideSync({ status: raw.status, errorType: errorTypeOf(raw), retryAfterSeconds: retryAfter });
			switch (decision.kind) {
				case 'success':
					await this.succeed(run, res.value);
					return;
				case 'retry':
					run =
						(await this.update(run.id, {
							phase: `Retrying under the same key in ${Math.ceil(decision.afterMs / 1000)} s: ${decision.why}.`,
							requestId: requestIdOf(raw)
						})) ?? run;
					await this.deps.sleep(decision.afterMs);
					continue;
				case 'outcome-unknown':
					await this.unknown(run, raw);
					return;
				case 'field-errors':
					await this.fieldErrors(run, raw);
					return;
				case 'failed':
					await this.failWith(run, raw, retryAfter);
					return;
			}
		}
	}

	/** A URL the service returned may carry the key only when it is on the router's own origin. */
	private ownOrigin(client: RouterClient, url: string): AppError | undefined {
		let origin = '';
		try {
			origin = new URL(url).origin;
		} catch {
			return appError('bad-response', `The service returned "${url.slice(0, 80)}", which is not an absolute URL.`);
		}
		return origin === client.origin
			? undefined
			: appError('origin-refused', `The service pointed at ${origin}, which is not the router's own origin; the key is not sent there.`);
	}

	private async submit(start: ModelRun, client: RouterClient): Promise<ModelRun | undefined> {
		let run = start;
		let blind = 0;
		for (;;) {
			const sending = await this.update(run.id, { attempts: run.attempts + 1, phase: 'Submitting to the queue.' });
			if (!sending) return undefined;
			run = sending;
			const res = await client.fetch({
				url: modelUrl(client.base, run.modelId, '/requests'),
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Idempotency-Key': run.idempotencyKey },
				body: JSON.stringify(run.body),
				credential: client.credential
			});
			if (!res.ok) {
				if (!noAnswer(res.error) || blind >= MAX_BLIND_RETRIES) {
					await this.update(run.id, { status: 'failed', phase: undefined, finishedAt: this.deps.now(), error: res.error });
					return undefined;
				}
				const wait = backoffDelay(blind++, NO_ANSWER_BACKOFF, this.deps.random());
				run =
					(await this.update(run.id, { phase: `No answer; submitting again under the same key in ${Math.ceil(wait / 1000)} s.` })) ?? run;
				await this.deps.sleep(wait);
				continue;
			}
			const raw = res.value;
			const retryAfter = retryAfterSeconds(raw.header('Retry-After'));
			if (raw.status === 201 || raw.status === 200) {
				const json = readJson(raw, 'router');
				const body = json.ok && isObject(json.value) ? json.value : undefined;
				const requestId = body ? str(body, 'request_id') : undefined;
				const statusUrl = body ? str(body, 'status_url') : undefined;
				const responseUrl = body ? str(body, 'response_url') : undefined;
				const cancelUrl = body ? str(body, 'cancel_url') : undefined;
				if (!requestId || !statusUrl || !responseUrl || !cancelUrl) {
					await this.update(run.id, {
						status: 'failed',
						phase: undefined,
						error: appError('bad-response', 'The queue answered without a request id and its three URLs.', {
							status: raw.status,
							requestId: requestIdOf(raw)
						})
					});
					return undefined;
				}
				const position = body ? num(body, 'queue_position') : undefined;
				const queue: QueueHandle = {
					requestId,
					statusUrl,
					responseUrl,
					cancelUrl,
					polls: 0,
					...(position !== undefined ? { position } : {}),
					lastStatus: str(body!, 'status') ?? ''
				};
				return this.update(run.id, {
					queue,
					requestId,
					status: 'queued',
					phase: undefined,
					replayed: raw.header('Idempotent-Replayed') === 'true'
				});
			}
			const decision = decideSync({ status: raw.status, errorType: errorTypeOf(raw), retryAfterSeconds: retryAfter });
			if (decision.kind === 'retry') {
				run =
					(await this.update(run.id, {
						phase: `Submitting again under the same key in ${Math.ceil(decision.afterMs / 1000)} s: ${decision.why}.`
					})) ?? run;
				await this.deps.sleep(decision.afterMs);
				continue;
			}
			if (decision.kind === 'outcome-unknown') await this.unknown(run, raw);
			else if (decision.kind === 'field-errors') await this.fieldErrors(run, raw);
			else await this.failWith(run, raw, retryAfter);
			return undefined;
		}
	}

	/** Polls `status_url` honouring Retry-After, then collects `response_url` once after COMPLETED. */
	private async poll(start: ModelRun, client: RouterClient): Promise<void> {
		let run = start;
		let misses = 0;
		for (;;) {
			const queue = run.queue;
			if (!queue) return;
			const guard = this.ownOrigin(client, queue.statusUrl) ?? this.ownOrigin(client, queue.responseUrl);
			if (guard) {
				await this.update(run.id, { status: 'failed', error: guard });
				return;
			}
			const res = await client.fetch({ url: queue.statusUrl, credential: client.credential });
			const latest = await this.repo.get(run.id);
			if (!latest || isModelTerminal(latest.status)) return;
			run = latest;
			if (!res.ok) {
				const wait = backoffDelay(misses++, { baseMs: 1000, maxMs: 30_000 }, this.deps.random());
				run =
					(await this.update(run.id, {
						phase: `Status unavailable (${res.error.message}); asking again in ${Math.ceil(wait / 1000)} s.`
					})) ?? run;
				await this.deps.sleep(wait);
				continue;
			}
			const raw = res.value;
			const retryAfter = retryAfterSeconds(raw.header('Retry-After'));
			if (raw.status !== 200) {
				if (raw.status === 503 || raw.status >= 500) {
					const wait = Math.max((retryAfter ?? 0) * 1000, backoffDelay(misses++, { baseMs: 1000, maxMs: 30_000 }, this.deps.random()));
					run =
						(await this.update(run.id, {
							phase: `The queue is unavailable (HTTP ${raw.status}); asking again in ${Math.ceil(wait / 1000)} s.`
						})) ?? run;
					await this.deps.sleep(wait);
					continue;
				}
				await this.failWith(run, raw, retryAfter);
				return;
			}
			misses = 0;
			const json = readJson(raw, 'router');
			const body = json.ok && isObject(json.value) ? json.value : {};
			const status = str(body, 'status');
			const position = num(body, 'queue_position');
			const next: QueueHandle = { ...queue, polls: queue.polls + 1, lastStatus: status ?? '' };
			if (position !== undefined) next.position = position;
			else delete next.position;
			if (queueFinished(status)) {
				run = (await this.update(run.id, { queue: next, phase: 'Finished; collecting the result.' })) ?? run;
				return this.collect(run, client);
			}
			run =
				(await this.update(run.id, {
					queue: next,
					status: position !== undefined ? 'queued' : 'running',
					startedAt: position === undefined ? (run.startedAt ?? this.deps.now()) : run.startedAt
				})) ?? run;
			await this.deps.sleep(Math.max(POLL_MIN_MS, retryAfter !== undefined ? retryAfter * 1000 : POLL_DEFAULT_MS));
		}
	}

	private async collect(start: ModelRun, client: RouterClient): Promise<void> {
		let run = start;
		for (;;) {
			const queue = run.queue!;
			const res = withBytes(await client.fetch({ url: queue.responseUrl, credential: client.credential, read: 'bytes' }));
			if (!res.ok) {
				const wait = backoffDelay(0, { baseMs: 2000, maxMs: 30_000 }, this.deps.random());
				run =
					(await this.update(run.id, {
						phase: `Collecting failed (${res.error.message}); trying again in ${Math.ceil(wait / 1000)} s.`
					})) ?? run;
				await this.deps.sleep(wait);
				continue;
			}
			const raw = res.value.raw;
			if (raw.status === 202) {
				const retryAfter = retryAfterSeconds(raw.header('Retry-After'));
				await this.deps.sleep(Math.max(POLL_MIN_MS, (retryAfter ?? 2) * 1000));
				run = (await this.repo.get(run.id)) ?? run;
				continue;
			}
			if (raw.status === 200) {
				await this.succeed(run, res.value);
				return;
			}
			await this.failWith(run, raw, retryAfterSeconds(raw.header('Retry-After')));
			return;
		}
	}
}
