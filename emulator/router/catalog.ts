/** The partner-model catalog. Part 2 of the emulator grows this to 120+ models and real paging. */

export interface CatalogModel {
	id: string;
	provider: string;
	model: string;
	billing: { charges_on_policy_rejection: string };
}

export function buildCatalog(): CatalogModel[] {
	const entries: Array<[string, string, string]> = [
		['fal', 'flux-schnell', 'no'],
		['fal', 'flux-dev', 'no'],
		['stability', 'sd3-large', 'yes'],
		['openai', 'gpt-image-1', 'yes'],
		['google', 'veo-3', 'per_attempt_review']
	];
	return entries.map(([provider, model, charges]) => ({
		id: `${provider}/${model}`,
		provider,
		model,
		billing: { charges_on_policy_rejection: charges }
	}));
}
