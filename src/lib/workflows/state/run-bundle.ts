/**
 * Run bundles and share links on the page. A bundle is made and opened in the worker (hashing and
 * zipping hundreds of MiB here would stall the page); this module asks for it, passing a signal that
 * can stop it, and shows what comes back. Loaded only when a person exports, opens or shares.
 */
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { cancellableCall } from '$lib/core/state/cancellable-call';
import type { JsonObject } from '$lib/core/protocol/json';
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import { safeName } from '$lib/workflows/rules/bundle/bundle-write';
import type { Read } from '$lib/workflows/rules/bundle/refusal';
import { makeShareLink, readShareLink, type MadeLink, type SharedWorkflow } from '$lib/workflows/rules/bundle/share-link';
import type { ApiPrompt } from '$lib/workflows/protocol/workflow-api';
import type { ExportedBundle, OpenedRunBundle } from '$lib/workflows/protocol/bundle';

export type OpenedBundle = OpenedRunBundle;
export type { ExportedBundle, SharedWorkflow, MadeLink, Read };

async function savedUi(run: WorkflowRun): Promise<JsonObject | null> {
	if (!run.workflowId) return null;
	const saved = await workerApi().getWorkflow({ id: run.workflowId });
	return (saved?.ui as JsonObject | undefined) ?? null;
}

/** One zip with everything a run was and made (see `rules/bundle/bundle-write.ts`), made in the worker. */
export function exportRunBundle(run: WorkflowRun, signal?: AbortSignal): Promise<Read<ExportedBundle>> {
	const api = workerApi();
	return cancellableCall<Read<ExportedBundle>>(api, signal, (operationId) =>
		api.exportBundle({ runId: run.id, ...(operationId ? { operationId } : {}) })
	);
}

/** A dropped or chosen file, read as a bundle in the worker; refused with one line when it is not one, or is hostile. */
export function openBundleFile(file: Blob, signal?: AbortSignal): Promise<Read<OpenedBundle>> {
	const api = workerApi();
	return cancellableCall<Read<OpenedBundle>>(api, signal, (operationId) =>
		api.openBundle({ file, ...(operationId ? { operationId } : {}) })
	);
}

export function openShareLink(fragment: string): Read<SharedWorkflow> {
	return readShareLink(fragment);
}

/** The share link for a run: its workflow and the values it ran with. */
export async function runShareLink(run: WorkflowRun, appOrigin: string): Promise<MadeLink> {
	return makeShareLink(appOrigin, { name: run.title, prompt: run.prompt, ui: await savedUi(run) });
}

export interface ReusePlan {
	prompt: ApiPrompt;
	/** Input files the server was found to have by hash (no bytes sent), and those that were sent. */
	found: number;
	sent: number;
	uploadedBytes: number;
}

/** A bundle's workflow for `profileId`: each input file offered by hash first, sent only where the server lacks it. */
export async function placeBundleInputs(opened: OpenedBundle, profileId: string): Promise<Read<ReusePlan>> {
	const prompt = structuredClone(opened.prompt);
	let found = 0;
	let sent = 0;
	let uploadedBytes = 0;
	for (const input of opened.manifest.inputs) {
		const bytes = opened.files.get(input.path)!;
		// A name the server gave (a hash prefix and the file's own name): sent under the file's own name.
		const name = safeName(input.name).replace(/^[0-9a-f]{12}_/, '');
		const file = new File([bytes], name, { type: input.type });
		const placed = await workerApi().uploadInput({ profileId, uploadId: `bundle-${input.path}`, file });
		if (!placed.ok)
			return { ok: false, error: { kind: 'format', message: `${input.name} could not be placed on the server: ${placed.error.message}` } };
		const ref = placed.value.subfolder ? `${placed.value.subfolder}/${placed.value.name}` : placed.value.name;
		Object.defineProperty(prompt[input.nodeId]!.inputs, input.input, { value: ref, writable: true, enumerable: true, configurable: true });
		if (placed.value.via === 'from-hash') found++;
		else sent++;
		uploadedBytes += placed.value.uploadedBytes;
	}
	return { ok: true, value: { prompt, found, sent, uploadedBytes } };
}
