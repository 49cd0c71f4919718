/**
 * Opening a run bundle: the zip read within the limits, the manifest and workflows parsed into
 * typed values, every listed file present and matching its BLAKE3 hash, nothing else in the zip.
 * Nothing here runs anything: the opened bundle is shown, and runs only when a person presses Run.
 */
import { isObject, own, parseJsonWithin, type JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { toApiPrompt } from '../workflow-import';
import { API_PATH, MANIFEST_PATH, parseManifest, UI_PATH, type BundleManifest } from './bundle-manifest';
import { shown } from './entry-path';
import { BUNDLE_LIMITS, type BundleLimits } from './limits';
import { accept, refuse, type Read } from './refusal';
import { mib, readZip } from './zip-read';

export interface OpenedBundle {
	manifest: BundleManifest;
	prompt: ApiPrompt;
	/** The editor workflow, when the bundle has one. */
	ui: JsonObject | null;
	/** Each input's and output's bytes, by its path in the manifest. */
	files: Map<string, Uint8Array>;
}

/** BLAKE3 of some bytes, as lowercase hex. */
export type HashBytes = (bytes: Uint8Array) => Promise<string>;

function json(files: Map<string, Uint8Array>, path: string, limits: BundleLimits): Read<unknown> {
	const bytes = files.get(path);
	if (!bytes) return refuse('not-a-bundle', `This zip is not a Runboard run bundle: it has no ${path}.`);
	if (bytes.length > limits.jsonBytes)
		return refuse('too-large', `${path} is ${mib(bytes.length)}; at most ${mib(limits.jsonBytes)} is read.`);
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return refuse('corrupt', `${path} is not UTF-8 text.`);
	}
	const parsed = parseJsonWithin(text, limits.jsonDepth);
	if (!parsed.ok)
		return parsed.error instanceof RangeError
			? refuse('depth', `${path} nests deeper than ${limits.jsonDepth} levels.`)
			: refuse('corrupt', `${path} is not valid JSON.`);
	return accept(parsed.value);
}

/** Reads a bundle within `limits`; `signal` stops it between files (refused as `cancelled`). */
export async function readBundle(
	bytes: Uint8Array,
	hash: HashBytes,
	limits: BundleLimits = BUNDLE_LIMITS,
	signal?: AbortSignal
): Promise<Read<OpenedBundle>> {
	const stopped = () => refuse('cancelled', 'Opening the bundle was stopped.');
	if (signal?.aborted) return stopped();
	const zip = readZip(bytes, limits);
	if (!zip.ok) return zip;
	const files = zip.value;
	const manifestJson = json(files, MANIFEST_PATH, limits);
	if (!manifestJson.ok) return manifestJson;
	const manifest = parseManifest(manifestJson.value as never);
	if (!manifest.ok) return manifest;
	const apiJson = json(files, API_PATH, limits);
	if (!apiJson.ok) return apiJson;
	const prompt = toApiPrompt(apiJson.value as never);
	if (!prompt.ok) return refuse('format', `The bundle's workflow cannot be read: ${prompt.message}`);
	let ui: JsonObject | null = null;
	if (manifest.value.hasUi) {
		const uiJson = json(files, UI_PATH, limits);
		if (!uiJson.ok) return uiJson;
		if (!isObject(uiJson.value)) return refuse('format', `${UI_PATH} is not a workflow.`);
		ui = uiJson.value;
	}
	const listed = new Set([MANIFEST_PATH, API_PATH, ...(manifest.value.hasUi ? [UI_PATH] : [])]);
	const contents = new Map<string, Uint8Array>();
	for (const f of [...manifest.value.inputs, ...manifest.value.outputs]) {
		const content = files.get(f.path);
		if (!content) return refuse('format', `The bundle lists ${shown(f.path)} but does not hold it.`);
		if (content.length !== f.bytes) return refuse('hash', `${shown(f.path)} is not the size the manifest says: it was changed.`);
		if (signal?.aborted) return stopped();
		if ((await hash(content)) !== f.blake3)
			return refuse('hash', `${shown(f.path)} does not match its BLAKE3 hash: it was changed or damaged.`);
		listed.add(f.path);
		contents.set(f.path, content);
	}
	if (signal?.aborted) return stopped();
	for (const name of files.keys())
		if (!listed.has(name)) return refuse('format', `The bundle holds ${shown(name)}, which its manifest does not list.`);
	for (const input of manifest.value.inputs) {
		const node = own(prompt.prompt, input.nodeId);
		if (!node || own(node.inputs, input.input) !== input.name)
			return refuse('format', `The manifest says node ${shown(input.nodeId)} loads ${shown(input.name)}, but the workflow does not.`);
	}
	return accept({ manifest: manifest.value, prompt: prompt.prompt, ui, files: contents });
}
