/**
 * Making a run bundle: the manifest, the API workflow (and the editor one where saved), every input
 * and output with its BLAKE3 hash, zipped. Credentials are left out of every JSON value first
 * (`secrets.ts`); media that is already compressed is stored, JSON is deflated.
 */
import { zipSync, type Zippable } from 'fflate';
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
import type { HashBytes } from './bundle-read';
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
	inputs: Array<{ nodeId: string; input: string; name: string; type: string; bytes: Uint8Array }>;
	outputs: Array<{ nodeId: string; kind: OutputKind; name: string; type: string; bytes: Uint8Array }>;
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

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value, null, 1));

/** Makes the bundle; `signal` stops it between files (the promise then rejects with the signal's reason). */
export async function writeBundle(
	source: BundleSource,
	hash: HashBytes,
	signal?: AbortSignal
): Promise<{ bytes: Uint8Array; manifest: BundleManifest }> {
	const prompt = withoutSecrets(source.prompt as unknown as Json);
	const ui = source.ui ? withoutSecrets(source.ui, 'ui') : null;
	const zip: Zippable = {};
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
		zip[path] = [input.bytes, { level: 0 }];
		inputs.push({
			path,
			blake3: await hash(input.bytes),
			bytes: input.bytes.length,
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
		zip[path] = [output.bytes, { level: 0 }];
		outputs.push({
			path,
			blake3: await hash(output.bytes),
			bytes: output.bytes.length,
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
	zip[MANIFEST_PATH] = [jsonBytes(manifest), { level: 6 }];
	zip[API_PATH] = [jsonBytes(prompt.value), { level: 6 }];
	if (ui) zip[UI_PATH] = [jsonBytes(ui.value), { level: 6 }];
	return { bytes: zipSync(zip, { mtime: new Date(source.now) }), manifest };
}
