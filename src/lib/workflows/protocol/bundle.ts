/** Run bundles as the worker hands them to the page: made (a zip Blob and what was left out) and opened (files as Blobs). */
import type { BundleManifest } from '../rules/bundle/bundle-manifest';
import type { JsonObject } from '../../core/protocol/json';
import type { ApiPrompt } from './workflow-api';
import type { Read } from '../rules/bundle/refusal';

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
