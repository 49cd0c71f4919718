/**
 * Run bundles and share links on the page: made from a run (its saved workflow, its input files
 * read back from the server, its cached outputs) and opened from a file or a link's fragment.
 * Loaded only when a person exports, opens or shares: fflate and hash-wasm stay out of the first view.
 */
import { blake3 } from 'hash-wasm';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { JsonObject } from '$lib/core/protocol/json';
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import { loadedImages } from '$lib/workbench/rules/edit-input';
import { readBundle, type OpenedBundle } from '$lib/workflows/rules/bundle/bundle-read';
import { safeName, writeBundle, type BundleSource } from '$lib/workflows/rules/bundle/bundle-write';
import type { Read } from '$lib/workflows/rules/bundle/refusal';
import { BUNDLE_LIMITS } from '$lib/workflows/rules/bundle/limits';
import { mib } from '$lib/workflows/rules/bundle/zip-read';
import { makeShareLink, readShareLink, type MadeLink, type SharedWorkflow } from '$lib/workflows/rules/bundle/share-link';
import type { ApiPrompt } from '$lib/workflows/protocol/workflow-api';

export type { OpenedBundle, SharedWorkflow, MadeLink, Read };

const hashBytes = (bytes: Uint8Array) => blake3(bytes);

async function bytesOf(blob: Blob): Promise<Uint8Array> {
	return new Uint8Array(await blob.arrayBuffer());
}

export interface ExportedBundle {
	blob: Blob;
	fileName: string;
	/** Input files the server no longer had: left out, by name. */
	missingInputs: string[];
	/** Values left out as credentials, by where they were. */
	leftOut: string[];
}

async function savedUi(run: WorkflowRun): Promise<JsonObject | null> {
	if (!run.workflowId) return null;
	const saved = await workerApi().getWorkflow({ id: run.workflowId });
	return (saved?.ui as JsonObject | undefined) ?? null;
}

/** One zip with everything a run was and made (see `rules/bundle/bundle-write.ts`). */
export async function exportRunBundle(run: WorkflowRun): Promise<ExportedBundle> {
	const api = workerApi();
	const inputs: BundleSource['inputs'] = [];
	const missingInputs: string[] = [];
	for (const { nodeId, name } of loadedImages(run.prompt)) {
		const blob = await api.inputImage({ profileId: run.profileId, name });
		if (!blob.ok) {
			missingInputs.push(name);
			continue;
		}
		inputs.push({ nodeId, input: 'image', name, type: blob.value.type || 'application/octet-stream', bytes: await bytesOf(blob.value) });
	}
	const outputs: BundleSource['outputs'] = [];
	for (const [index, output] of run.outputs.entries()) {
		const blob = await api.output({ runId: run.id, index });
		if (!blob.ok) continue;
		outputs.push({
			nodeId: output.nodeId,
			kind: output.kind,
			name: output.ref.label ?? output.ref.filename,
			type: blob.value.type || output.ref.contentType || 'application/octet-stream',
			bytes: await bytesOf(blob.value)
		});
	}
	const surface = await api.workflowSurface({ profileId: run.profileId });
	const { bytes, manifest } = await writeBundle(
		{
			title: run.title,
			status: run.status,
			times: {
				created: run.createdAt,
				...(run.queuedAt ? { queued: run.queuedAt } : {}),
				...(run.startedAt ? { started: run.startedAt } : {}),
				...(run.finishedAt ? { finished: run.finishedAt } : {})
			},
			seeds: run.seeds,
			server: { surface: surface.ok ? surface.value : null, version: null },
			spend: null,
			prompt: run.prompt,
			ui: await savedUi(run),
			inputs,
			outputs,
			texts: run.texts ?? [],
			now: Date.now()
		},
		hashBytes
	);
	return {
		blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
		fileName: `${safeName(run.title).replace(/\.+$/, '')}.runboard.zip`,
		missingInputs,
		leftOut: manifest.leftOut
	};
}

/** A dropped or chosen file, read as a bundle; refused with one line when it is not one, or is hostile. */
export async function openBundleFile(file: Blob): Promise<Read<OpenedBundle>> {
	if (file.size > BUNDLE_LIMITS.fileBytes)
		return {
			ok: false,
			error: { kind: 'too-large', message: `The file is ${mib(file.size)}; a bundle may be at most ${mib(BUNDLE_LIMITS.fileBytes)}.` }
		};
	return readBundle(await bytesOf(file), hashBytes);
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
		const file = new File([bytes as Uint8Array<ArrayBuffer>], name, { type: input.type });
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
