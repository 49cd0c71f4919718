/**
 * What the workflow feature's API carries besides runs: saved workflows and what an import found,
 * and what a Cancel did. Types only; the rules are `rules/workflow-import.ts`, `rules/converter/` and
 * `rules/stop-outcome.ts`, the storage `worker/library-repo.ts`.
 */
import type { JsonObject } from '../../core/protocol/json';
import type { ApiPrompt } from '../../core/protocol/workflow-run';

export interface MissingNodeType {
	type: string;
	/** Node pack from `properties.cnr_id` or `aux_id`, when the file says. */
	pack?: string;
	/** The pack's version the file was saved with (`properties.ver`); for `comfy-core`, the ComfyUI version that has the node. */
	version?: string;
	/** `Node name for S&R`, when it differs from the type. */
	searchName?: string;
	nodes: Array<{ id: string; title: string }>;
}

export interface MissingModel {
	name: string;
	nodeId: string;
	title: string;
	input: string;
	url?: string;
	directory?: string;
}

export interface Missing {
	nodeTypes: MissingNodeType[];
	models: MissingModel[];
}

export type ImportResult =
	| {
			ok: true;
			prompt: ApiPrompt;
			source: 'json' | 'file';
			/** The editor (UI) format the prompt came from or was embedded beside, kept for titles, groups and export. */
			ui?: JsonObject;
			/** What the person should know: offline conversion, the embedded prompt preferred and why, converter warnings. */
			notes?: string[];
			/** Node packs and model files the server lacks. */
			missing?: Missing;
			/** The file is a sweep's grid picture: the sweep it names, reopened instead when this device has it. */
			sweepId?: string;
	  }
	| {
			ok: false;
			message: string;
			missing?: Missing;
			/** A sweep's grid picture with no workflow in it (a model sweep's): the sweep it names, reopened when this device has it. */
			sweepId?: string;
	  };

export interface SavedWorkflow {
	id: string;
	name: string;
	prompt: ApiPrompt;
	/** The UI-format file the workflow was imported from: titles, groups, layout; exported and sent as extra_pnginfo. */
	ui?: JsonObject;
	/** What the import said (offline conversion, embedded prompt preferred, converter warnings). */
	notes?: string[];
	/** Node packs and model files the server lacked when imported. */
	missing?: Missing;
	createdAt: number;
	updatedAt: number;
	thumbnail?: Blob;
}

/**
 * What a Cancel did, read back from the server's queue and history afterwards (never what was asked):
 * `removed` it was waiting and is gone; `interrupted` it was running and stopped; `stopping` the
 * stop was sent and the job still runs (it stops when its current node ends; a job in its last node
 * finishes); `finished-first` it ended before the cancel took effect; `still-waiting` the server kept it.
 */
export type StopOutcome =
	| { kind: 'removed'; via: StopRoute }
	| { kind: 'interrupted'; via: StopRoute }
	| { kind: 'stopping'; via: StopRoute }
	| { kind: 'finished-first' }
	| { kind: 'still-waiting'; via: StopRoute }
	/**
	 * The server accepted the cancel but does not stop jobs (the self-hosted proxy in front of ComfyUI
	 * 0.3.64 answers `canceling`, then reads `running` to the end). `behind`: the ComfyUI the profile
	 * names behind the proxy, where an interrupt does work; null when there is none to offer.
	 */
	| { kind: 'not-stopped'; via: StopRoute; behind: string | null }
	/** A `not-stopped` job that then ran to its end. */
	| { kind: 'ran-on' };
/**
 * `job-cancel`: `POST /api/jobs/{id}/cancel` (v1, or the v2 job's cancel link); `interrupt`: `POST /api/interrupt`;
 * `queue-delete`: `POST /api/queue {delete}`; `interrupt-behind`: `POST /api/interrupt` on the ComfyUI behind a v2 proxy.
 */
export type StopRoute = 'job-cancel' | 'interrupt' | 'queue-delete' | 'interrupt-behind';
