/**
 * Run bundles made and opened in the worker: hashing (BLAKE3) and zipping a run of hundreds of MiB
 * on the page would stall it; the zip streams each file in slices into a Blob (`bundle-write.ts`). The bundle code (fflate, the zip reader) is loaded on first use, so it
 * is not part of the worker's start. Long work takes an operation id: `cancelOperation` stops it
 * between files.
 */
import type { Result } from '../../core/protocol/errors';
import type { JsonObject } from '../../core/protocol/json';
import type { Operations } from '../../core/worker/operations';
import type { WorkflowRun } from '../rules/run-record';
import { loadedImages } from '../../workbench/rules/edit-input';
import type { BundleManifest } from '../rules/bundle/bundle-manifest';
import { refuse, type Read } from '../rules/bundle/refusal';
import type { BundleApi, ExportedBundle, OpenedRunBundle } from '../protocol/bundle';
import { blake3OfBytes, createHasher } from './file-hasher';

/** What making a bundle reads, from the workflow feature. */
export interface BundleSources {
	run(id: string): Promise<WorkflowRun | null>;
	/** The editor workflow saved with the run's workflow, if any. */
	ui(workflowId: string): Promise<JsonObject | null>;
	inputImage(profileId: string, name: string): Promise<Result<Blob>>;
	output(runId: string, index: number): Promise<Result<Blob>>;
	/** The profile's surface kind and the server's version (`/system_stats`; null where it says none). */
	server(profileId: string): Promise<BundleManifest['server']>;
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

export class RunBundles {
	constructor(
		private readonly sources: BundleSources,
		private readonly operations: Operations
	) {}

	api(): BundleApi {
		return {
			exportBundle: (i) => this.run(i.operationId, 'Making the bundle was stopped.', (signal) => this.exportBundle(i.runId, signal)),
			openBundle: (i) => this.run(i.operationId, 'Opening the bundle was stopped.', (signal) => this.openBundle(i.file, signal))
		};
	}

	private async run<T>(
		operationId: string | undefined,
		stoppedWords: string,
		work: (signal: AbortSignal | undefined) => Promise<Read<T>>
	): Promise<Read<T>> {
		const operation = this.operations.begin(operationId);
		try {
			return await work(operation.signal);
		} catch (error) {
			if (operation.signal?.aborted) return refuse('cancelled', stoppedWords);
			throw error;
		} finally {
			operation.end();
		}
	}

	private async exportBundle(runId: string, signal: AbortSignal | undefined): Promise<Read<ExportedBundle>> {
		const run = await this.sources.run(runId);
		if (!run) return refuse('not-a-bundle', 'This run is no longer on this device.');
		const { writeBundle, safeName } = await import('../rules/bundle/bundle-write');
		const inputs = [];
		const missingInputs: string[] = [];
		for (const { nodeId, name } of loadedImages(run.prompt)) {
			signal?.throwIfAborted();
			const blob = await this.sources.inputImage(run.profileId, name);
			if (!blob.ok) {
				missingInputs.push(name);
				continue;
			}
			inputs.push({ nodeId, input: 'image', name, type: blob.value.type || 'application/octet-stream', blob: blob.value });
		}
		const outputs = [];
		for (const [index, output] of run.outputs.entries()) {
			signal?.throwIfAborted();
			const blob = await this.sources.output(run.id, index);
			if (!blob.ok) continue;
			outputs.push({
				nodeId: output.nodeId,
				kind: output.kind,
				name: output.ref.label ?? output.ref.filename,
				type: blob.value.type || output.ref.contentType || 'application/octet-stream',
				blob: blob.value
			});
		}
		const server = await this.sources.server(run.profileId);
		const { blob, manifest } = await writeBundle(
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
				server,
				spend: null,
				prompt: run.prompt,
				ui: run.workflowId ? await this.sources.ui(run.workflowId) : null,
				inputs,
				outputs,
				texts: run.texts ?? [],
				now: Date.now()
			},
			createHasher,
			signal
		);
		return {
			ok: true,
			value: {
				blob,
				fileName: `${safeName(run.title).replace(/\.+$/, '')}.runboard.zip`,
				missingInputs,
				leftOut: manifest.leftOut,
				server: manifest.server
			}
		};
	}

	private async openBundle(file: Blob, signal: AbortSignal | undefined): Promise<Read<OpenedRunBundle>> {
		const [{ BUNDLE_LIMITS }, { mib }, { readBundle }] = await Promise.all([
			import('../rules/bundle/limits'),
			import('../rules/bundle/zip-read'),
			import('../rules/bundle/bundle-read')
		]);
		if (file.size > BUNDLE_LIMITS.fileBytes)
			return refuse('too-large', `The file is ${mib(file.size)}; a bundle may be at most ${mib(BUNDLE_LIMITS.fileBytes)}.`);
		const opened = await readBundle(await bytesOf(file), (piece) => blake3OfBytes(piece, signal), BUNDLE_LIMITS, signal);
		if (!opened.ok) return opened;
		const types = new Map([...opened.value.manifest.inputs, ...opened.value.manifest.outputs].map((f) => [f.path, f.type]));
		const files = new Map<string, Blob>();
		for (const [path, bytes] of opened.value.files)
			files.set(path, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: types.get(path) ?? 'application/octet-stream' }));
		return { ok: true, value: { manifest: opened.value.manifest, prompt: opened.value.prompt, ui: opened.value.ui, files } };
	}
}
