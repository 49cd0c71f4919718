/**
 * One open workflow: its inputs as form values, seeds and their modes, uploads in progress,
 * problems found before sending and errors the service returned, and running it N times.
 */
import { snapshot } from '$lib/core/state/snapshot.svelte';
import { SvelteMap } from 'svelte/reactivity';
import type { AppError, Result } from '$lib/core/protocol/errors';
import type { NodeDefinitions } from '$lib/workflows/protocol/object-info';
import { definitionsFromWorkflow } from '$lib/workflows/rules/object-info-inferred';
import { typesOf } from '$lib/workflows/rules/definitions-of';
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import { checkWorkflow, usesPartnerNodes, type WorkflowProblem } from '$lib/workflows/rules/workflow-check';
import { valueAt, withValueAt, type Field, type SeedField, type SeedMode } from '$lib/fields/rules/field-model';
import { applyValues, workflowFieldGroups, workflowValues } from '$lib/workflows/rules/object-info-fields';
import { nextSeed } from '$lib/fields/rules/seeds';
import { roundFloat } from '$lib/fields/rules/float-rounding';
import { closestModelFile } from '$lib/core/rules/closest-model';
import { listValuesOf } from '$lib/workflows/rules/reuse-missing';
import { missingNodeTypeCure } from '$lib/workflows/rules/missing-node-words';
import { canvasLayout } from '$lib/workflows/rules/converter/canvas-layout';
import type { ApiPrompt } from '$lib/workflows/protocol/workflow-api';
import type { SavedWorkflow, SubmitRunError, SubmitRunInput, UploadedInput, UploadPhase } from '$lib/workflows/protocol/api';
import { cancellable, onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { draftSaver } from '../../core/state/drafts';

type Values = Record<string, Record<string, unknown>>;

export class WorkflowEditor {
	workflow = $state<SavedWorkflow | null>(null);
	missing = $state(false);
	nodes = $state<NodeDefinitions | null>(null);
	infoProblem = $state<AppError | null>(null);
	infoFromCache = $state(false);
	/** The service publishes no node definitions (a v2 deployment): the form is read off the workflow's values. */
	infoInferred = $state(false);
	values = $state<Values>({});
	seedModes = $state<Record<string, SeedMode>>({});
	fieldErrors = $state<Record<string, string>>({});
	nodeMessages = $state<Record<string, string[]>>({});
	submitProblem = $state<{ message: string; status?: number; requestId?: string } | null>(null);
	busy = $state(false);
	lastRuns = $state<WorkflowRun[]>([]);
	/** Where Run sends the form's runs (a pool, through the page); the profile's own queue when unset. */
	submitVia: ((input: SubmitRunInput) => Promise<Result<WorkflowRun, SubmitRunError>>) | null = null;
	readonly uploads = new SvelteMap<string, { phase: UploadPhase; loaded: number; total: number }>();
	readonly previews = new SvelteMap<string, string>();
	/** Fields whose upload is under way: progress that arrives after one ends or is cancelled is ignored. */
	private readonly uploading = new Set<string>();
	/** Edits are kept as they are made: reloading (an update, a crash) loses nothing. */
	private readonly draft = draftSaver(async () => {
		if (this.workflow)
			this.workflow = await workerApi().saveWorkflow({
				id: this.workflow.id,
				name: this.workflow.name,
				prompt: this.currentPrompt(),
				...this.owner()
			});
	});

	/** What the editor (UI) format says about the canvas, when the workflow came in that format. */
	layout = $derived(this.workflow?.ui ? canvasLayout(this.workflow.ui) : null);
	groups = $derived(this.workflow && this.nodes ? workflowFieldGroups(this.workflow.prompt, this.nodes, this.layout) : []);
	problems = $derived<WorkflowProblem[]>(
		this.workflow && this.nodes ? checkWorkflow(this.currentPrompt(), this.nodes, this.workflow.missing?.nodeTypes) : []
	);
	partner = $derived(this.workflow && this.nodes ? usesPartnerNodes(this.workflow.prompt, this.nodes) : false);
	/** The run whose inputs filled the form ("run again with these"), if any. */
	inputsFrom = $state<WorkflowRun | null>(null);
	/** Node types the import found missing that this server still lacks. */
	missingNodeTypes = $derived(
		(this.workflow?.missing?.nodeTypes ?? [])
			.filter((t) => !this.nodes || !Object.hasOwn(this.nodes, t.type))
			.map((t) => ({ ...t, cure: missingNodeTypeCure(t) }))
	);
	/**
	 * Model files the import found missing that the form still names, each with the closest file the
	 * server offers for that input: choosing one (or any other value) takes the warning away.
	 */
	missingModels = $derived(
		[
			...(this.workflow?.missing?.models ?? []),
			// A reused run's models, LoRAs and other list values, which this server (another profile's, perhaps) may lack.
			...(this.inputsFrom && this.nodes ? listValuesOf(this.inputsFrom.prompt, this.nodes) : [])
		].flatMap((model, i, all) => {
			if (all.findIndex((m) => m.nodeId === model.nodeId && m.input === model.input) !== i) return [];
			const values = Object.hasOwn(this.values, model.nodeId) ? this.values[model.nodeId] : undefined;
			if (!values || !Object.hasOwn(values, model.input) || values[model.input] !== model.name) return [];
			const node = this.workflow && Object.hasOwn(this.workflow.prompt, model.nodeId) ? this.workflow.prompt[model.nodeId] : undefined;
			const definition = node && this.nodes && Object.hasOwn(this.nodes, node.class_type) ? this.nodes[node.class_type] : undefined;
			const input = definition?.inputs.find((i) => i.name === model.input);
			const offered = input?.type.kind === 'COMBO' ? input.type.choices : [];
			if (offered.includes(model.name)) return [];
			const closest = closestModelFile(model.name, offered);
			return [{ ...model, ...(closest !== undefined ? { closest } : {}) }];
		})
	);

	private readonly unsubscribe: () => void;
	private disposed = false;

	constructor(private readonly profileId: () => string | null) {
		this.unsubscribe = onWorkerEvent((event) => {
			if (event.type === 'upload-progress' && this.uploading.has(event.uploadId))
				this.uploads.set(event.uploadId, { phase: event.phase, loaded: event.loaded, total: event.total });
		});
	}

	/** The profile whose node definitions write the form's values back into a UI-format workflow. */
	private owner(): { profileId?: string } {
		const profileId = this.profileId();
		return profileId ? { profileId } : {};
	}

	/** Stops following upload progress and revokes the previews of picked files; for when the page goes. A pending draft is still saved. */
	dispose(): void {
		this.disposed = true;
		this.unsubscribe();
		for (const url of new Set(this.previews.values())) URL.revokeObjectURL(url);
		this.previews.clear();
	}

	async open(id: string, inputsOfRun: string | null = null): Promise<void> {
		const workflow = await workerApi().getWorkflow({ id });
		if (!workflow) {
			this.missing = true;
			return;
		}
		this.workflow = workflow;
		this.values = workflowValues(workflow.prompt);
		const run = inputsOfRun ? await workerApi().getRun({ id: inputsOfRun }) : null;
		if (run) {
			// Only the nodes this workflow still has take the run's values.
			const used = workflowValues(run.prompt);
			// Node ids are the file's words (`constructor`): own lookups, own writes.
			for (const nodeId of Object.keys(this.values))
				if (Object.hasOwn(used, nodeId)) this.values = withValueAt(this.values, [nodeId], used[nodeId]) as Values;
			this.inputsFrom = run;
		}
		await this.loadNodes(false);
	}

	async saveName(name: string): Promise<SavedWorkflow | null> {
		if (!this.workflow) return null;
		return workerApi().saveWorkflow({ id: this.workflow.id, name, prompt: snapshot(this.workflow.prompt) });
	}

	async loadNodes(refresh: boolean): Promise<void> {
		const profileId = this.profileId();
		if (!profileId) return;
		// Asked to try again: the live socket, waiting out its backoff, tries now too.
		if (refresh) workerApi().wake({ reason: 'retry' });
		// Only the types this workflow uses cross to the page (a server serves hundreds).
		const types = this.workflow ? typesOf(this.workflow.prompt) : undefined;
		const info = await workerApi().objectInfo({ profileId, refresh, ...(types ? { types } : {}) });
		if (info.ok) {
			this.infoInferred = info.value.none === true;
			this.nodes = info.value.none && this.workflow ? definitionsFromWorkflow(this.workflow.prompt) : info.value.nodes;
			this.infoFromCache = info.value.fromCache;
			this.infoProblem = info.value.problem ?? null;
		} else {
			this.infoProblem = info.error;
		}
	}

	/** The workflow with the form's values, as a plain object (state proxies cannot cross to the worker). */
	currentPrompt(): ApiPrompt {
		return this.workflow ? snapshot(applyValues(this.workflow.prompt, this.values)) : {};
	}

	valueOf(field: Field): unknown {
		return valueAt(this.values, field.path);
	}

	set(field: Field, value: unknown): void {
		this.values = withValueAt(this.values, field.path, value) as Values;
		// A PrimitiveNode's one field sets every input it feeds.
		const primitive = this.layout?.primitives.find((p) => p.fields[0] === field.id);
		for (const other of primitive?.fields.slice(1) ?? []) {
			const [nodeId, input] = [other.slice(0, other.lastIndexOf('.')), other.slice(other.lastIndexOf('.') + 1)];
			if (this.values[nodeId]) this.values = withValueAt(this.values, [nodeId, input], value) as Values;
		}
		delete this.fieldErrors[field.id];
		this.draft.schedule();
	}

	/** Puts `name` in the input a missing model file was named in (the "use the closest file" tap). */
	useModel(model: { nodeId: string; input: string }, name: string): void {
		const field = this.groups.flatMap((g) => g.fields).find((f) => f.path[0] === model.nodeId && f.path[1] === model.input);
		if (field) this.set(field, name);
	}

	seedMode(fieldId: string): SeedMode {
		return (Object.hasOwn(this.seedModes, fieldId) ? this.seedModes[fieldId] : undefined) ?? 'randomize';
	}

	/** Hashes and sends a file for a field; `signal` stops both (the Cancel button, or the page going away). */
	async upload(field: Field, file: File, maskFor?: string, signal?: AbortSignal): Promise<string | undefined> {
		const profileId = this.profileId();
		if (!profileId) return undefined;
		const previewUrl = URL.createObjectURL(file);
		this.uploading.add(field.id);
		const result = await cancellable<Result<UploadedInput>>(signal, (operationId) =>
			workerApi().uploadInput({
				profileId,
				uploadId: field.id,
				file,
				...(maskFor ? { maskFor: { filename: maskFor, subfolder: '', type: 'input' as const } } : {}),
				...(operationId ? { operationId } : {})
			})
		).finally(() => this.uploading.delete(field.id));
		// Progress comes on the event port and the answer on the call's: a last "done" may arrive after the
		// answer (and is then ignored), so the answer itself ends the sending line.
		this.uploads.delete(field.id);
		if (!result.ok) {
			URL.revokeObjectURL(previewUrl);
			this.fieldErrors[field.id] = result.error.message;
			return undefined;
		}
		// The page went while the file was uploading: nothing shows the preview any more.
		if (this.disposed) {
			URL.revokeObjectURL(previewUrl);
			return undefined;
		}
		const shown = maskFor ? (this.previews.get(maskFor) ?? previewUrl) : previewUrl;
		if (shown !== previewUrl) URL.revokeObjectURL(previewUrl);
		this.setPreview(result.value.name, shown);
		return result.value.name;
	}

	/** Shows `url` for an uploaded name; a URL no name shows any more is revoked. */
	private setPreview(name: string, url: string): void {
		const old = this.previews.get(name);
		this.previews.set(name, url);
		if (old && old !== url && ![...this.previews.values()].includes(old)) URL.revokeObjectURL(old);
	}

	/** Checks what the browser can check before sending: bounds and required values. */
	private validate(): boolean {
		const errors: Record<string, string> = {};
		for (const group of this.groups) {
			for (const field of group.fields) {
				let value = this.valueOf(field);
				if (field.kind === 'number' && field.round !== undefined && typeof value === 'number' && Number.isFinite(value)) {
					// ComfyUI's editor snaps a FLOAT to its resolution: so does the form, rather than refusing it.
					const snapped = roundFloat(value, field.round, field.min, field.max);
					if (snapped !== value) this.set(field, (value = snapped));
				}
				if (field.required && (value === undefined || value === '') && field.kind !== 'text' && field.kind !== 'textarea')
					errors[field.id] = 'Required.';
				if ((field.kind === 'integer' || field.kind === 'number' || field.kind === 'seed') && value !== undefined && value !== null) {
					if (typeof value !== 'number' || !Number.isFinite(value)) errors[field.id] = 'Enter a number.';
					else if (field.min !== undefined && value < field.min) errors[field.id] = `At least ${field.min}.`;
					else if (field.max !== undefined && value > field.max) errors[field.id] = `At most ${field.max}.`;
					else if (field.kind !== 'number' && !Number.isInteger(value)) errors[field.id] = 'Enter a whole number.';
				}
			}
		}
		this.fieldErrors = errors;
		return Object.keys(errors).length === 0;
	}

	private seedFields(): SeedField[] {
		return this.groups.flatMap((g) => g.fields.filter((f): f is SeedField => f.kind === 'seed'));
	}

	/** Runs the workflow `times` times; each run uses the seeds shown, then moves them by their mode. */
	async run(times: number): Promise<void> {
		const profileId = this.profileId();
		if (!this.workflow || !profileId || !this.validate()) return;
		this.busy = true;
		this.submitProblem = null;
		this.nodeMessages = {};
		const started: WorkflowRun[] = [];
		try {
			for (let i = 0; i < times; i++) {
				// Field ids come from the workflow file: no prototype for a key like `__proto__` to reach.
				const seeds: Record<string, number> = Object.create(null);
				for (const field of this.seedFields()) {
					const v = this.valueOf(field);
					if (typeof v === 'number') seeds[field.id] = v;
				}
				const prompt = this.currentPrompt();
				this.workflow = await workerApi().saveWorkflow({ id: this.workflow.id, name: this.workflow.name, prompt, ...this.owner() });
				const input = { profileId, workflowId: this.workflow.id, title: this.workflow.name, prompt, seeds };
				const result = await (this.submitVia ? this.submitVia(input) : workerApi().submitRun(input));
				if (!result.ok) {
					this.showSubmitError(result.error);
					break;
				}
				started.push(result.value);
				for (const field of this.seedFields()) {
					const used = seeds[field.id];
					if (used !== undefined) this.set(field, nextSeed(this.seedMode(field.id), used, field.min, field.max));
				}
			}
			// Keep the seeds as they moved after the runs, as ComfyUI does: reopening must not repeat the last run.
			if (started.length > 0 && this.workflow) {
				this.workflow = await workerApi().saveWorkflow({
					id: this.workflow.id,
					name: this.workflow.name,
					prompt: this.currentPrompt(),
					...this.owner()
				});
			}
		} catch (error) {
			this.submitProblem = { message: `The run could not be started: ${error instanceof Error ? error.message : String(error)}` };
		} finally {
			this.busy = false;
			this.lastRuns = started;
		}
	}

	private showSubmitError(error: SubmitRunError): void {
		if (error.kind === 'rejected') {
			const fieldErrors: Record<string, string> = {};
			// Keyed by node ids from the workflow file: no prototype for `constructor` or `__proto__` to hit.
			const nodeMessages: Record<string, string[]> = Object.create(null);
			for (const [nodeId, problems] of Object.entries(error.problems)) {
				for (const p of problems) {
					if (p.inputName && this.groups.some((g) => g.fields.some((f) => f.id === `${nodeId}.${p.inputName}`)))
						fieldErrors[`${nodeId}.${p.inputName}`] = p.message;
					else (nodeMessages[nodeId] ??= []).push(p.inputName ? `${p.inputName}: ${p.message}` : p.message);
				}
			}
			this.fieldErrors = fieldErrors;
			this.nodeMessages = nodeMessages;
			this.submitProblem = {
				message: error.message,
				...(error.status ? { status: error.status } : {}),
				...(error.requestId ? { requestId: error.requestId } : {})
			};
		} else {
			const e = error.error;
			this.submitProblem = {
				message: e.detail ? `${e.message} ${e.detail}` : e.message,
				...(e.status ? { status: e.status } : {}),
				...(e.requestId ? { requestId: e.requestId } : {})
			};
		}
	}
}
