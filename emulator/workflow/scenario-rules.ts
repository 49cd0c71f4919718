/** What each scenario means for the workflow service, read in one place. */
import type { ScenarioName } from '../scenarios';
import type { RunEnding } from './runner';

export interface WorkflowRules {
	local: boolean;
	/** Jobs of the account that run at once (the tier); the local runtime runs one. */
	concurrency: number;
	ending: RunEnding;
	rejectAssetNames: boolean;
	noCredits: boolean;
	inactiveSubscription: boolean;
	modelsUnavailable: boolean;
}

export function workflowScenario(name: ScenarioName): WorkflowRules {
	return {
		local: name === 'comfyui-local',
		concurrency: name === 'two-concurrent-jobs' ? 2 : 1,
		ending: name === 'end-executing-first' ? 'null-then-terminal' : name === 'end-empty-node' ? 'terminal-then-empty' : 'terminal-then-null',
		rejectAssetNames: name === 'asset-names-rejected',
		noCredits: name === 'no-credits',
		inactiveSubscription: name === 'inactive-subscription',
		modelsUnavailable: name === 'models-unavailable'
	};
}
