/**
 * Run bundles as the worker hands them to the page: made (a zip Blob and what was left out) and opened
 * (files as Blobs); the manifest's shape and the refusals, which the bundle rules read and write.
 */
import type { JsonObject } from '../../core/protocol/json';
import type { OutputKind, RunStatus } from '../../core/protocol/workflow-run';
import type { ApiPrompt } from './workflow-api';

/** Why a bundle or a link was not opened: a kind for code, one line for a person. */
export type RefusalKind = 'not-a-bundle' | 'too-large' | 'path' | 'corrupt' | 'depth' | 'format' | 'hash' | 'version' | 'cancelled';

export interface Refusal {
	kind: RefusalKind;
	message: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; error: Refusal };

/** One file in the bundle: where it sits, its BLAKE3 (hex), size and media type. */
export interface BundleFile {
	path: string;
	blake3: string;
	bytes: number;
	type: string;
}

/** An input file the run loaded: the node and input that named it, and the name the server knew it by. */
export interface BundleInput extends BundleFile {
	nodeId: string;
	input: string;
	name: string;
}

export interface BundleOutput extends BundleFile {
	nodeId: string;
	kind: OutputKind;
	name: string;
}

export interface BundleManifest {
	format: 'runboard-run-bundle';
	version: 1;
	title: string;
	status: RunStatus;
	exportedAt: number;
	times: { created: number; queued?: number; started?: number; finished?: number };
	/** Seeds used, by field id. */
	seeds: Record<string, number>;
	/** The server the run went to: its kind, and its version where it says one (`/system_stats`). */
	server: { surface: string | null; version: string | null };
	/** What the run cost, where the service said. */
	spend: { amount: number; currency: string } | null;
	/** The editor (UI) workflow was saved with the run's workflow. */
	hasUi: boolean;
	inputs: BundleInput[];
	outputs: BundleOutput[];
	texts: Array<{ nodeId: string; text: string; name?: string }>;
	/** Values left out as credentials when the bundle was made, by where they were. */
	leftOut: string[];
}

export interface ExportedBundle {
	blob: Blob;
	fileName: string;
	/** Input files the server no longer had: left out, by name. */
	missingInputs: string[];
	/** Values left out as credentials, by where they were. */
	leftOut: string[];
	/** The server the run went to, as written in the manifest ("unknown" version: the server says none). */
	server: BundleManifest['server'];
}

/** An opened bundle: its manifest and workflows, and each file's bytes as a Blob (cheap to pass from the worker). */
export interface OpenedRunBundle {
	manifest: BundleManifest;
	prompt: ApiPrompt;
	ui: JsonObject | null;
	files: Map<string, Blob>;
}

export interface BundleApi {
	/**
	 * Makes a run's bundle in the worker (reading its inputs back from the server, its outputs from the
	 * cache, hashing and zipping off the page). With `operationId`, `cancelOperation` stops it.
	 */
	exportBundle(input: { runId: string; operationId?: string }): Promise<Read<ExportedBundle>>;
	/** Opens a dropped or chosen file as a bundle in the worker; refused with one line when it is not one, or is hostile. */
	openBundle(input: { file: Blob; operationId?: string }): Promise<Read<OpenedRunBundle>>;
}
