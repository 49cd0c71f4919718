/**
 * Sending runs and their inputs: uploads an input (remembering the files sent by hash), submits a
 * run, and when the service cannot resolve a name sent by hash, uploads those bytes and submits
 * once more. The run is stored and tracked before sending; a refusal comes back as a value.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { isStorageFull } from '../../core/worker/quota';
import { newWorkflowRun, type NodeProblems, type WorkflowRun } from '../rules/run-record';
import { usesPartnerNodes } from '../rules/workflow-check';
import type { ApiPrompt, FileRef, NodeErrors } from '../protocol/workflow-api';
import type { ObjectInfoView, SubmitRunError, SubmitRunInput, UploadedInput } from '../protocol/api';
import type { WorkflowContext } from './socket-message';
import { sendInput } from './input-uploader';
import type { LibraryRepo } from './library-repo';
import type { RunTracker } from './run-tracker';
import type { RunsRepo } from './runs-repo';
import type { WriteOptions } from '../../core/worker/kv-store';
import type { Surfaces, WorkflowSurface } from './surfaces';

export class RunSubmitter {
	/** Files sent by hash this session, by the name the workflow references, for a fallback upload. */
	private readonly sentByHash = new Map<string, { profileId: string; file: File }>();

	constructor(
		private readonly ctx: WorkflowContext,
		private readonly runs: RunsRepo,
		private readonly library: LibraryRepo,
		private readonly tracker: RunTracker,
		private readonly surfaces: Surfaces,
		/** The profile's node definitions (cached), to tell whether a run uses partner nodes. */
		private readonly objectInfo: (input: { profileId: string }) => Promise<Result<ObjectInfoView>>
	) {}

	async uploadInput({
		profileId,
		uploadId,
		file,
		maskFor,
		operationId
	}: {
		profileId: string;
		uploadId: string;
		file: File;
		maskFor?: FileRef;
		operationId?: string;
	}): Promise<Result<UploadedInput>> {
		// Begun before any await, so a cancel sent right after this call finds it.
		const operation = this.ctx.operations.begin(operationId);
		try {
			const surface = await this.surfaces.for(profileId);
			if (!surface.ok) return surface;
			const result = await sendInput(
				surface.value,
				this.ctx.kv,
				file,
				{ ...(maskFor ? { mask: { originalRef: maskFor } } : {}), ...(operation.signal ? { signal: operation.signal } : {}) },
				(phase, loaded, total) => this.ctx.emit({ type: 'upload-progress', uploadId, phase, loaded, total })
			);
			if (result.ok && result.value.via === 'from-hash') this.sentByHash.set(result.value.name, { profileId, file });
			return result;
		} finally {
			operation.end();
		}
	}

	async submitRun(input: SubmitRunInput): Promise<Result<WorkflowRun, SubmitRunError>> {
		const found = await this.surfaces.for(input.profileId);
		if (!found.ok) return fail({ kind: 'error', error: found.error, runId: null });
		const surface = found.value;
		const info = await this.objectInfo({ profileId: input.profileId });
		const partner = info.ok ? usesPartnerNodes(input.prompt, info.value.nodes) : false;
		const { runId, promptId, sweep, pool, ...asked } = input;
		let run: WorkflowRun = {
			...newWorkflowRun({ id: runId ?? crypto.randomUUID(), ...asked, partner, now: Date.now() }),
			promptId: promptId ?? crypto.randomUUID(),
			...(sweep ? { sweep } : {}),
			...(pool ? { pool } : {})
		};
		// The record and its key (the prompt id) reach the device before anything is sent, or nothing is sent.
		try {
			await this.save(run, { required: true });
		} catch (error) {
			if (!isStorageFull(error)) throw error;
			return fail({ kind: 'error', error: appError('storage', error.message), runId: null });
		}
		this.tracker.track(run); // before sending: its first events may beat the answer
		// Our prompt id is stored with the run before sending, so it also serves as the idempotency key.
		// As ComfyUI's editor does, so the outputs carry the graph (surfaces that take no such field leave it out).
		const saved = input.workflowId ? await this.library.get(input.workflowId) : undefined;
		const request = (prompt: ApiPrompt) => ({
			prompt,
			...(saved?.ui ? { extraPngInfo: { workflow: saved.ui } } : {}),
			promptId: run.promptId!,
			idempotencyKey: run.promptId!,
			clientId: this.ctx.clientId(),
			partner
		});

		let prompt = input.prompt;
		let answer = await surface.submit(request(prompt));
		// The service may not resolve a name created by from-hash: upload those bytes and submit once more.
		if (!answer.ok && answer.error.kind === 'rejected') {
			const retried = await this.uploadRejectedInputs(prompt, answer.error.nodeErrors, surface);
			if (retried) {
				prompt = retried;
				run = { ...run, prompt };
				answer = await surface.submit(request(prompt));
			}
		}
		if (answer.ok) {
			if (answer.value.promptId !== run.promptId) this.tracker.forget(run.id);
			run = this.tracker.accepted(run, answer.value.promptId, answer.value.links);
			this.ctx.notifyTabs('runs-changed');
			return ok(run);
		}
		const failure = answer.error;
		if (failure.kind === 'rejected' || (failure.error.kind !== 'network' && failure.error.kind !== 'timeout')) this.tracker.forget(run.id);
		if (failure.kind === 'rejected') {
			const problems = problemsOf(failure.nodeErrors);
			run = {
				...run,
				status: 'failed',
				finishedAt: Date.now(),
				nodeProblems: problems,
				error: {
					kind: 'submit',
					title: 'Rejected',
					message: failure.message,
					status: failure.status,
					...(failure.requestId ? { requestId: failure.requestId } : {})
				}
			};
			await this.save(run);
			return fail({
				kind: 'rejected',
				message: failure.message,
				problems,
				status: failure.status,
				...(failure.requestId ? { requestId: failure.requestId } : {}),
				runId: run.id
			});
		}
		const error = failure.error;
		if (error.kind === 'network' || error.kind === 'timeout') {
			// The job may have been accepted before the connection dropped: keep it and let polling find out.
			this.ctx.notifyTabs('runs-changed');
			return fail({
				kind: 'error',
				error: { ...error, message: `${error.message} The run is kept and will be checked when the service answers.` },
				runId: run.id
			});
		}
		run = {
			...run,
			status: 'failed',
			finishedAt: Date.now(),
			error: {
				kind: 'submit',
				title: 'Not accepted',
				message: error.message,
				...(error.status ? { status: error.status } : {}),
				...(error.requestId ? { requestId: error.requestId } : {})
			}
		};
		await this.save(run);
		return fail({ kind: 'error', error, runId: run.id });
	}

	/** Uploads the bytes of inputs sent by hash that the service rejected; returns the corrected workflow, if any. */
	private async uploadRejectedInputs(prompt: ApiPrompt, nodeErrors: NodeErrors, surface: WorkflowSurface): Promise<ApiPrompt | undefined> {
		let next: ApiPrompt | undefined;
		for (const [nodeId, nodeError] of Object.entries(nodeErrors)) {
			for (const error of nodeError.errors) {
				const inputName = error.extra_info?.input_name;
				const value = inputName ? prompt[nodeId]?.inputs[inputName] : undefined;
				const sent = typeof value === 'string' ? this.sentByHash.get(value) : undefined;
				if (!inputName || !sent || sent.profileId !== surface.profileId) continue;
				const uploaded = await sendInput(surface, this.ctx.kv, sent.file, { forceUpload: true }, () => {});
				if (!uploaded.ok) return undefined;
				next ??= structuredClone(prompt);
				next[nodeId]!.inputs[inputName] = uploaded.value.name;
			}
		}
		return next;
	}

	private async save(run: WorkflowRun, options: WriteOptions = {}): Promise<void> {
		await this.runs.put(run, options);
		this.ctx.emit({ type: 'run', run });
	}
}

function problemsOf(nodeErrors: NodeErrors): NodeProblems {
	// Node ids come from the server's answer: no prototype for an id like `__proto__` to reach.
	const problems: NodeProblems = Object.create(null);
	for (const [nodeId, nodeError] of Object.entries(nodeErrors)) {
		problems[nodeId] = nodeError.errors.map((e) => ({
			...(e.extra_info?.input_name ? { inputName: e.extra_info.input_name } : {}),
			message: e.details ? `${e.message}: ${e.details}` : e.message
		}));
	}
	return problems;
}
