/** What each scenario means for the workflow service, read in one place. */
import type { ScenarioName } from '../scenarios';

/** How the end of a run is announced (the variants the spec and the local runtime allow). */
export type RunEnding = 'terminal-then-null' | 'terminal-then-empty' | 'null-then-terminal' | 'empty-then-terminal';

export interface WorkflowRules {
	local: boolean;
	/** A current local ComfyUI: `/api/jobs`, job cancel, from-hash answering 503 (0.3.64 has none; both answer `/api/features`). */
	currentComfy: boolean;
	/** Jobs of the account that run at once (the tier); the local runtime runs one. */
	concurrency: number;
	ending: RunEnding;
	rejectAssetNames: boolean;
	noCredits: boolean;
	inactiveSubscription: boolean;
	modelsUnavailable: boolean;
}

const ENDINGS: Partial<Record<ScenarioName, RunEnding>> = {
	'end-executing-first': 'null-then-terminal',
	'end-empty-node': 'terminal-then-empty',
	'end-empty-node-first': 'empty-then-terminal'
};

export function workflowScenario(name: ScenarioName): WorkflowRules {
	return {
		local: name === 'comfyui-local' || name === 'comfyui-local-legacy',
		currentComfy: name === 'comfyui-local',
		concurrency: name === 'two-concurrent-jobs' ? 2 : 1,
		ending: ENDINGS[name] ?? 'terminal-then-null',
		rejectAssetNames: name === 'asset-names-rejected',
		noCredits: name === 'no-credits',
		inactiveSubscription: name === 'inactive-subscription',
		modelsUnavailable: name === 'models-unavailable'
	};
}
