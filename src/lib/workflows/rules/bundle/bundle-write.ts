/**
 * Making a run bundle: the manifest, the API workflow (and the editor one where saved), every input
 * and output with its BLAKE3 hash, zipped. Credentials are left out of every JSON value first
 * (`secrets.ts`); media that is already compressed is stored, JSON is deflated.
 *
 * The zip is streamed (fflate's `Zip`): each file is read in slices, each slice hashed and passed
 * through to the zip, and the zip's pieces are folded into one Blob every few MiB. So a file's bytes
 * are never held whole here, and the bundle is held once, as a Blob (which the browser may keep on
 * disk), not as an array beside its files' bytes and then copied into a Blob.
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Json, JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import type { OutputKind, RunStatus } from '../../../core/protocol/workflow-run';
import {
	API_PATH,
	BUNDLE_FORMAT,
	BUNDLE_VERSION,
	INPUTS_DIR,
	MANIFEST_PATH,
	OUTPUTS_DIR,
	UI_PATH,
	type BundleInput,
	type BundleManifest,
	type BundleOutput
} from './bundle-manifest';
import { withoutSecrets } from './secrets';

export interface BundleSource {
	title: string;
	status: RunStatus;
	times: BundleManifest['times'];
	seeds: Record<string, number>;
	server: BundleManifest['server'];
	spend: BundleManifest['spend'];
	prompt: ApiPrompt;
	ui: JsonObject | null;
	inputs: Array<{ nodeId: string; input: string; name: string; type: string; blob: Blob }>;
	outputs: Array<{ nodeId: string; kind: OutputKind; name: string; type: string; blob: Blob }>;
	texts: BundleManifest['texts'];
	now: number;
}

/** A file name safe inside the bundle: the last part of a name, plain characters only. */
export function safeName(name: string): string {
	const last = name.split(/[\\/]/).pop() ?? '';
	return (
		last
			.replace(/[^\w.\- ]+/g, '_')
			.replace(/^\.+/, '_')
			.slice(-80) || 'file'
	);
}

/** A BLAKE3 hasher fed piece by piece, answering lowercase hex. */
export interface StreamingHash {
	update(bytes: Uint8Array): void;
	digestHex(): string;
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value, null, 1));

/** A file is read (and hashed) this much at a time. */
const SLICE_BYTES = 4 * 1024 * 1024;
/** The zip's pieces are folded into the Blob once this many bytes wait. */
const FOLD_BYTES = 16 * 1024 * 1024;

/** The zip's pieces as they come, folded into one Blob now and then so no large array lives long. */
class BlobSink {
	private blob = new Blob([]);
	private waiting: Uint8Array[] = [];
	private waitingBytes = 0;
	private failure: Error | null = null;
	private ended = false;

	readonly zip = new Zip((error, piece, final) => {
		if (error) this.failure = error;
		else {
			this.waiting.push(piece);
			this.waitingBytes += piece.length;
		}
		if (final) this.ended = true;
	});

	/** Folds what waits once enough does (or always, with `all`). */
	fold(all = false): void {
		if (this.failure) throw this.failure;
		if (this.waitingBytes === 0 || (!all && this.waitingBytes < FOLD_BYTES)) return;
		this.blob = new Blob([this.blob, ...(this.waiting as Uint8Array<ArrayBuffer>[])]);
		this.waiting = [];
		this.waitingBytes = 0;
	}

	finish(): Blob {
		this.zip.end();
		this.fold(true);
		if (!this.ended) throw new Error('The zip did not end.');
		return new Blob([this.blob], { type: 'application/zip' });
	}
}

/** Stores `blob` at `path`, read a slice at a time; answers its BLAKE3. */
async function storeFile(
	sink: BlobSink,
	path: string,
	blob: Blob,
	newHash: () => Promise<StreamingHash>,
	mtime: Date,
	signal: AbortSignal | undefined
): Promise<string> {
	const hasher = await newHash();
	const entry = new ZipPassThrough(path);
	entry.mtime = mtime;
	sink.zip.add(entry);
	if (blob.size === 0) entry.push(new Uint8Array(0), true);
	for (let at = 0; at < blob.size; at += SLICE_BYTES) {
		signal?.throwIfAborted();
		const piece = new Uint8Array(await blob.slice(at, at + SLICE_BYTES).arrayBuffer());
		hasher.update(piece);
		entry.push(piece, at + SLICE_BYTES >= blob.size);
		sink.fold();
	}
	return hasher.digestHex();
}

function deflateFile(sink: BlobSink, path: string, bytes: Uint8Array, mtime: Date): void {
	const entry = new ZipDeflate(path, { level: 6 });
	entry.mtime = mtime;
	sink.zip.add(entry);
	entry.push(bytes, true);
}

/** Makes the bundle; `signal` stops it between slices (the promise then rejects with the signal's reason). */
export async function writeBundle(
	source: BundleSource,
	newHash: () => Promise<StreamingHash>,
	signal?: AbortSignal
): Promise<{ blob: Blob; manifest: BundleManifest }> {
	const prompt = withoutSecrets(source.prompt as unknown as Json);
	const ui = source.ui ? withoutSecrets(source.ui, 'ui') : null;
	const sink = new BlobSink();
	const mtime = new Date(source.now);
	const used = new Set<string>();
	const place = (dir: string, name: string, index: number): string => {
		let path = `${dir}${safeName(name)}`;
		if (used.has(path)) path = `${dir}${index}_${safeName(name)}`;
		used.add(path);
		return path;
	};
	const inputs: BundleInput[] = [];
	for (const [i, input] of source.inputs.entries()) {
		signal?.throwIfAborted();
		const path = place(INPUTS_DIR, input.name, i);
		inputs.push({
			path,
			blake3: await storeFile(sink, path, input.blob, newHash, mtime, signal),
			bytes: input.blob.size,
			type: input.type,
			nodeId: input.nodeId,
			input: input.input,
			name: input.name
		});
	}
	const outputs: BundleOutput[] = [];
	for (const [i, output] of source.outputs.entries()) {
		signal?.throwIfAborted();
		const path = place(OUTPUTS_DIR, output.name, i);
		outputs.push({
			path,
			blake3: await storeFile(sink, path, output.blob, newHash, mtime, signal),
			bytes: output.blob.size,
			type: output.type,
			nodeId: output.nodeId,
			kind: output.kind,
			name: safeName(output.name)
		});
	}
	const texts = source.texts.map((t) => ({ ...t, text: withoutSecrets(t.text).value }));
	const manifest: BundleManifest = {
		format: BUNDLE_FORMAT,
		version: BUNDLE_VERSION,
		title: source.title,
		status: source.status,
		exportedAt: source.now,
		times: source.times,
		seeds: source.seeds,
		server: { surface: source.server.surface, version: source.server.version },
		spend: source.spend,
		hasUi: ui !== null,
		inputs,
		outputs,
		texts,
		leftOut: [...prompt.leftOut, ...(ui?.leftOut ?? [])]
	};
	signal?.throwIfAborted();
	deflateFile(sink, MANIFEST_PATH, jsonBytes(manifest), mtime);
	deflateFile(sink, API_PATH, jsonBytes(prompt.value), mtime);
	if (ui) deflateFile(sink, UI_PATH, jsonBytes(ui.value), mtime);
	return { blob: sink.finish(), manifest };
}
