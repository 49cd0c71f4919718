/**
 * The workflow-runs feature of the worker: the node definitions (cached for offline), saved
 * workflows, the queue, and output bytes; input uploads and submitting runs are `RunSubmitter`'s.
 * Everything that talks to a server goes through the profile's surface (`surfaces/`), so it is the
 * same on every surface.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { NodeDefinitions } from '../protocol/object-info';
import { definitionsOf } from '../rules/definitions-of';
import { isTerminal, type WorkflowRun } from '../rules/run-record';
import { nodeTitle, type ImportResult } from '../rules/workflow-import';
import { importWorkflowTexts, type ImportDefinitions, type ImportTexts } from '../rules/converter/import-workflow';
import { workflowFromFileTexts } from '../protocol/files/workflow-texts';
import { writeWidgetValues } from '../rules/converter/write-values';
import { readWorkflowFile } from '../protocol/files/read-workflow-file';
import { formatMiB, MAX_FILE_READ_BYTES } from '../protocol/files/limits';
import type { WorkflowContext } from './socket-message';
import type {
	CancelManyReport,
	HandOverInput,
	ServerHistoryDelete,
	ObjectInfoView,
	QueueView,
	SavedWorkflow,
	SaveWorkflowInput,
	WorkflowApi
} from '../protocol/api';
import { LibraryRepo } from './library-repo';
import { RunTracker } from './run-tracker';
import { RunSubmitter } from './run-submitter';
import { RunsRepo } from './runs-repo';
import { handOverRun } from './run-handover';
import { Surfaces, type WorkflowSurface } from './surfaces';
import { RunBundles } from './run-bundles';
import type { JsonObject } from '../../core/protocol/json';
import type { ActiveJob, JobHandle, StopOutcome } from './surfaces/surface';
import { isQuotaError } from '../../core/worker/quota';
import { makeThumbnail } from '../../core/worker/thumbnail';
import { OBJECT_INFO_KEY as OBJECT_INFO } from '../../core/protocol/storage-keys';
import { SWEEP_TEXT_KEY } from '../../sweeps';
import { ownText, type FileTexts } from '../protocol/files/texts';

interface CachedObjectInfo {
	nodes: NodeDefinitions;
	fetchedAt: number;
}

export class WorkflowService {
	private readonly runs: RunsRepo;
	/** Profiles whose cached `object_info` was fetched since this worker started or the socket last reconnected. */
	private readonly objectInfoFresh = new Set<string>();
	/** Each profile's node definitions as last read or fetched by this worker. */
	private readonly objectInfoRead = new Map<string, CachedObjectInfo>();
	private readonly library: LibraryRepo;
	private readonly tracker: RunTracker;
	private readonly surfaces: Surfaces;
	private readonly submitter: RunSubmitter;
	private readonly bundles: RunBundles;
	private readonly outputReads = new Map<string, Promise<Result<Blob>>>();

	constructor(private readonly ctx: WorkflowContext) {
		this.runs = new RunsRepo(ctx.kv);
		this.library = new LibraryRepo(ctx.kv);
		this.surfaces = new Surfaces(ctx);
		this.tracker = new RunTracker(
			ctx,
			this.runs,
			{
				finished: (run) => void this.cacheOutputs(run),
				// A restarted server may have new nodes: the cached definitions are revalidated on next use.
				reconnected: (profileId) => this.objectInfoFresh.delete(profileId)
			},
			Date.now,
			this.surfaces
		);
		this.bundles = new RunBundles(
			{
				run: async (id) => this.tracker.newest(id) ?? (await this.runs.get(id)) ?? null,
				ui: async (workflowId) => ((await this.library.get(workflowId))?.ui as JsonObject | undefined) ?? null,
				inputImage: (profileId, name) => this.inputImage({ profileId, name }),
				output: (runId, index) => this.output({ runId, index }),
				server: (profileId) => this.serverFacts(profileId)
			},
			ctx.operations
		);
		this.submitter = new RunSubmitter(ctx, this.runs, this.library, this.tracker, this.surfaces, (i) => this.objectInfo(i));
		ctx.onLeader(() => this.tracker.start());
		ctx.onResync(() => void this.tracker.pollAll());
	}

	api(): WorkflowApi {
		return {
			objectInfo: (i) => this.objectInfo(i),
			listWorkflows: () => this.library.list(),
			getWorkflow: async ({ id }) => (await this.library.get(id)) ?? null,
			saveWorkflow: (i) => this.saveWorkflow(i),
			duplicateWorkflow: (i) => this.duplicateWorkflow(i),
			deleteWorkflow: ({ id }) => this.library.remove(id),
			importFile: ({ file, profileId }) => this.importFile(file, profileId),
			importText: ({ text, profileId }) => this.importTexts({ prompt: text }, 'The pasted text', profileId),
			uploadInput: (i) => this.submitter.uploadInput(i),
			submitRun: (i) => this.submitter.submitRun(i),
			listRuns: () => this.runs.list(),
			getRun: async ({ id }) => this.tracker.newest(id) ?? (await this.runs.get(id)) ?? null,
			workflowSurface: async ({ profileId }) => {
				const surface = await this.surface(profileId);
				return surface.ok ? ok(surface.value.kind) : surface;
			},
			deleteRun: (i) => this.deleteRun(i),
			cancelJobs: (i) => this.cancelJobs(i),
			deletesServerHistory: async ({ profileId }) => {
				const surface = await this.surface(profileId);
				return surface.ok && surface.value.capabilities.historyDelete;
			},
			deleteServerHistory: (i) => this.deleteServerHistory(i),
			interrupt: (i) => this.interrupt(i),
			stopRun: (i) => this.stopRun(i),
			stopJob: (i) => this.stopJob(i),
			queue: (i) => this.queue(i),
			output: (i) => this.output(i),
			inputImage: (i) => this.inputImage(i),
			...this.bundles.api()
		};
	}

	/** The profile's surface kind and its server's version for a bundle: null where it says none (or could not be asked). */
	private async serverFacts(profileId: string): Promise<{ surface: string | null; version: string | null }> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return { surface: null, version: null };
		const version = await surface.value.serverVersion();
		return { surface: surface.value.kind, version: version.ok ? version.value : null };
	}

	/** Takes a run off its server for a pool to send elsewhere (worker-internal: the pool calls it, not the page). */
	handOver(input: HandOverInput): Promise<Result<WorkflowRun>> {
		return handOverRun({ runs: this.runs, tracker: this.tracker, surfaces: this.surfaces }, input);
	}

	/** The runs not yet ended, as they are now. */
	async openRuns(): Promise<WorkflowRun[]> {
		return (await this.runs.open()).map((run) => this.tracker.newest(run.id) ?? run).filter((run) => !isTerminal(run.status));
	}

	private surface(profileId: string): Promise<Result<WorkflowSurface>> {
		return this.surfaces.for(profileId);
	}

	async objectInfo(input: { profileId: string; refresh?: boolean; types?: string[] }): Promise<Result<ObjectInfoView>> {
		const view = await this.allObjectInfo(input.profileId, input.refresh === true);
		if (!view.ok || !input.types) return view;
		return ok({ ...view.value, nodes: definitionsOf(view.value.nodes, input.types) });
	}

	private async allObjectInfo(profileId: string, refresh: boolean): Promise<Result<ObjectInfoView>> {
		const surface = await this.surface(profileId);
		if (surface.ok && !surface.value.servesNodeDefinitions)
			return ok({ nodes: Object.create(null) as NodeDefinitions, fetchedAt: Date.now(), fromCache: false, none: true });
		// Kept in memory once read: a server's full set is hundreds of types, too many to read back from
		// IndexedDB on every form.
		const cached = this.objectInfoRead.get(profileId) ?? (await this.ctx.kv.get<CachedObjectInfo>(OBJECT_INFO + profileId));
		if (cached) this.objectInfoRead.set(profileId, cached);
		// Served from the cache once revalidated since the worker started or the socket reconnected: not
		// fetched again on every page or submit. A failed revalidation (a CORS refusal) is told with it.
		if (cached && !refresh && this.objectInfoFresh.has(profileId)) return ok({ ...cached, fromCache: true });
		const fresh = await this.refreshObjectInfo(profileId);
		if (fresh.ok) return ok({ ...fresh.value, fromCache: false });
		return cached ? ok({ ...cached, fromCache: true, problem: fresh.error }) : fresh;
	}

	private async refreshObjectInfo(profileId: string): Promise<Result<CachedObjectInfo>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		const nodes = await surface.value.objectInfo();
		if (!nodes.ok) return nodes;
		const record = { nodes: nodes.value, fetchedAt: Date.now() };
		await this.ctx.kv.set(OBJECT_INFO + profileId, record);
		this.objectInfoRead.set(profileId, record);
		this.objectInfoFresh.add(profileId);
		return ok(record);
	}

	private async saveWorkflow({ id, name, prompt, ui, notes, missing, profileId }: SaveWorkflowInput): Promise<SavedWorkflow> {
		const now = Date.now();
		const existing = id ? await this.library.get(id) : undefined;
		// The form's values go back into the editor graph, for export and for the run's extra_pnginfo.
		if (!ui && existing?.ui && profileId) {
			const cached = await this.ctx.kv.get<CachedObjectInfo>(OBJECT_INFO + profileId);
			if (cached) ui = writeWidgetValues(existing.ui, prompt, cached.nodes);
		}
		const workflow: SavedWorkflow = {
			...(existing ?? {}),
			id: existing?.id ?? crypto.randomUUID(),
			name: name.trim() || 'Untitled workflow',
			prompt,
			...(ui ? { ui } : {}),
			...(notes ? { notes } : {}),
			...(missing ? { missing } : {}),
			createdAt: existing?.createdAt ?? now,
			updatedAt: now
		};
		await this.library.put(workflow);
		this.ctx.notifyTabs('workflows-changed');
		return workflow;
	}

	private async duplicateWorkflow({ id }: { id: string }): Promise<SavedWorkflow | null> {
		const original = await this.library.get(id);
		if (!original) return null;
		return this.saveWorkflow({
			name: `${original.name} (copy)`,
			prompt: structuredClone(original.prompt),
			...(original.ui ? { ui: structuredClone(original.ui) } : {}),
			...(original.notes ? { notes: original.notes } : {}),
			...(original.missing ? { missing: original.missing } : {})
		});
	}

	private async importFile(file: File, profileId: string | null): Promise<ImportResult> {
		const label = `"${file.name}"`;
		// Files ComfyUI saved (images, audio, video) are read by their metadata only, within caps.
		const embedded = await readWorkflowFile({ source: file, alsoKeys: [SWEEP_TEXT_KEY] }, new AbortController().signal);
		if (embedded.ok) {
			const sweepId = sweepNamedIn(embedded.texts);
			const imported = await this.importTexts(workflowFromFileTexts(embedded.texts), label, profileId);
			if (!sweepId) return imported;
			// A model sweep's picture carries no workflow: it can only reopen its sweep.
			return imported.ok
				? { ...imported, sweepId }
				: { ok: false, message: `${label} is the grid picture of a sweep that is not on this device.`, sweepId };
		}
		if (embedded.kind !== 'unsupported') return { ok: false, message: embedded.message };
		if (/^(image|audio|video)\//.test(file.type))
			return { ok: false, message: `${label} is a kind of file ComfyUI does not write its workflow into.` };
		if (file.size > MAX_FILE_READ_BYTES)
			return { ok: false, message: `${label} is larger than ${formatMiB(MAX_FILE_READ_BYTES)}: it is not a workflow file.` };
		let text: string;
		try {
			text = await file.text();
		} catch (error) {
			return {
				ok: false,
				message: `${label} could not be read (${error instanceof Error ? error.message : String(error)}); choose it again.`
			};
		}
		return this.importTexts({ prompt: text }, label, profileId);
	}

	/** UI-format texts convert with the profile's node definitions: fresh when the server answers, else the cached copy, said so. */
	private async importTexts(texts: ImportTexts, label: string, profileId: string | null): Promise<ImportResult> {
		let definitions: ImportDefinitions | null = null;
		const ui = texts.workflow ?? (texts.prompt && /"nodes"\s*:\s*\[/.test(texts.prompt) ? texts.prompt : undefined);
		if (profileId && ui !== undefined) {
			const info = await this.objectInfo({ profileId, refresh: true });
			if (info.ok && !info.value.none)
				definitions = {
					nodes: info.value.nodes,
					...(info.value.fromCache
						? {
								cachedNote: `Converted with the node definitions cached on ${new Date(info.value.fetchedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC: the server could not be reached.`
							}
						: {})
				};
		}
		return importWorkflowTexts(texts, label, definitions);
	}

	private async deleteRun({ id }: { id: string }): Promise<void> {
		this.tracker.forget(id, (await this.runs.get(id))?.promptId);
		await this.runs.remove(id);
		this.ctx.emit({ type: 'run-deleted', id });
		this.ctx.notifyTabs('runs-changed');
	}

	/** Runs a cancel with the tracker told which jobs it asks for, so one removed meanwhile reads Cancelled, not Lost. */
	private async whileCancelling<T>(promptIds: string[], cancel: () => Promise<T>): Promise<T> {
		const asking = this.tracker.cancelling(promptIds);
		try {
			return await cancel();
		} finally {
			asking.done();
		}
	}

	/**
	 * Cancels many jobs of one profile (batch where the server has it, else one by one) and folds what the
	 * server confirmed into the runs here: a removed waiting job is Cancelled, a v2 job still cancelling says so.
	 */
	private async cancelJobs({ profileId, promptIds }: { profileId: string; promptIds: string[] }): Promise<Result<CancelManyReport>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		const handles = await Promise.all(promptIds.map((promptId) => this.tracker.handleOf(promptId)));
		return this.whileCancelling(promptIds, async () => {
			const report = await surface.value.cancelMany(handles);
			if (!report.ok) return report;
			for (const job of report.value.jobs) {
				if (!('outcome' in job)) continue;
				const run = await this.runs.byPromptId(job.promptId);
				if (!run) continue;
				if (job.outcome.kind === 'removed') this.tracker.confirmCancelled(run);
				if (job.outcome.kind === 'stopping' && surface.value.kind === 'v2') this.tracker.markCanceling(run);
			}
			void this.tracker.pollAll();
			return report;
		});
	}

	/** Deletes finished jobs from the server's own history; this device's records are the page's to delete (with undo). */
	private async deleteServerHistory({
		profileId,
		promptIds
	}: {
		profileId: string;
		promptIds: string[];
	}): Promise<Result<ServerHistoryDelete>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		return surface.value.deleteHistory(promptIds.map((promptId) => ({ promptId })));
	}

	private async stopRun({ runId, behind = false }: { runId: string; behind?: boolean }): Promise<Result<StopOutcome>> {
		const run = await this.runs.get(runId);
		if (!run?.promptId) return fail(appError('not-found', 'This run has no job on the server to cancel.'));
		return this.stopJob({ profileId: run.profileId, promptId: run.promptId, behind });
	}

	/** Cancels one job by the best route its server has (the run page's Cancel run, and the Queue page's Cancel of a running job). */
	private async stopJob({
		profileId,
		promptId,
		behind = false
	}: {
		profileId: string;
		promptId: string;
		behind?: boolean;
	}): Promise<Result<StopOutcome>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		const handle = await this.tracker.handleOf(promptId);
		if (behind && !surface.value.interruptBehind) return fail(appError('not-found', 'This server has no ComfyUI behind it to interrupt.'));
		const outcome =
			behind && surface.value.interruptBehind ? await surface.value.interruptBehind(handle) : await surface.value.stop(handle);
		const run = await this.runs.byPromptId(promptId);
		// A cancel the user asked for and the server confirmed; an interrupted job is read from its history.
		if (run && outcome.ok && outcome.value.kind === 'removed') this.tracker.confirmCancelled(run);
		// v2: the service is still cancelling (`canceling`); the run says so until its terminal state.
		if (run && outcome.ok && outcome.value.kind === 'stopping' && surface.value.kind === 'v2') this.tracker.markCanceling(run);
		void this.tracker.pollAll();
		return outcome;
	}

	private async interrupt({ profileId, promptId }: { profileId: string; promptId?: string }): Promise<Result<void>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		const result = await surface.value.interrupt(promptId ? await this.tracker.handleOf(promptId) : undefined);
		void this.tracker.pollAll();
		return result;
	}

	private async queue({ profileId }: { profileId: string }): Promise<Result<QueueView>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		const active = await surface.value.activeJobs();
		if (!active.ok) return active;
		const known = new Map<string, WorkflowRun | undefined>();
		for (const job of active.value) known.set(job.promptId, await this.runs.byPromptId(job.promptId));
		const entry = (job: ActiveJob) => {
			const run = known.get(job.promptId);
			const prompt = job.prompt ?? {};
			const outputNode = Object.keys(prompt)[0];
			return {
				promptId: job.promptId,
				position: job.position,
				runId: run?.id ?? null,
				title: run?.title ?? (outputNode ? `${nodeTitle(prompt, outputNode)} …` : job.promptId)
			};
		};
		return ok({
			running: active.value.filter((j) => j.running).map(entry),
			pending: active.value
				.filter((j) => !j.running)
				.map(entry)
				.sort((a, b) => a.position - b.position)
		});
	}

	/**
	 * A run's output bytes, the cache first. One read per output at a time: a finished run's outputs are
	 * cached as it ends while a page or a sweep may ask for the same ones, and each would fetch them again.
	 */
	private output({ runId, index }: { runId: string; index: number }): Promise<Result<Blob>> {
		const key = `${runId}:${index}`;
		let reading = this.outputReads.get(key);
		if (!reading) {
			reading = this.readOutput(runId, index).finally(() => this.outputReads.delete(key));
			this.outputReads.set(key, reading);
		}
		return reading;
	}

	private async readOutput(runId: string, index: number): Promise<Result<Blob>> {
		const cached = await this.runs.output(runId, index);
		if (cached) return ok(cached);
		// The tracker's newest state first: storage lags up to a second behind a streamed output the page already shows.
		const run = this.tracker.newest(runId) ?? (await this.runs.get(runId));
		const item = run?.outputs[index];
		if (!run || !item) return fail(appError('not-found', 'This output is no longer in the run.'));
		const surface = await this.surface(run.profileId);
		if (!surface.ok) return surface;
		const blob = await surface.value.outputBytes(item.ref);
		if (blob.ok) {
			try {
				await this.runs.putOutput(runId, index, blob.value);
			} catch (error) {
				// Shown from the service; the store has already told the person the device is full.
				if (!isQuotaError(error)) throw error;
			}
		}
		return blob;
	}

	private async inputImage({ profileId, name }: { profileId: string; name: string }): Promise<Result<Blob>> {
		const surface = await this.surface(profileId);
		if (!surface.ok) return surface;
		return surface.value.outputBytes({ filename: name, subfolder: '', type: 'input' });
	}

	/** Fetches a finished run's outputs into the cache, so they show offline and after the signed URL expires. */
	private async cacheOutputs(run: WorkflowRun): Promise<void> {
		for (let i = 0; i < run.outputs.length; i++) await this.output({ runId: run.id, index: i });
		if (run.workflowId) await this.updateThumbnail(run);
	}

	private async updateThumbnail(run: WorkflowRun): Promise<void> {
		const index = run.outputs.findIndex((o) => o.kind === 'image');
		if (index < 0 || !run.workflowId) return;
		const [workflow, blob] = [await this.library.get(run.workflowId), await this.runs.output(run.id, index)];
		if (!workflow || !blob) return;
		const thumbnail = await makeThumbnail(blob);
		await this.library.put({ ...workflow, thumbnail: thumbnail.ok ? thumbnail.value : blob });
		this.ctx.notifyTabs('workflows-changed');
	}
}

/** The id of the sweep an exported grid picture names, if its text says one. */
function sweepNamedIn(texts: FileTexts): string | undefined {
	const text = ownText(texts, SWEEP_TEXT_KEY);
	if (!text) return undefined;
	try {
		const value: unknown = JSON.parse(text);
		const id = typeof value === 'object' && value !== null && Object.hasOwn(value, 'id') ? (value as { id: unknown }).id : undefined;
		return typeof id === 'string' && /^[\w-]{1,64}$/.test(id) ? id : undefined;
	} catch {
		return undefined;
	}
}
