import type { ModelRun } from './model-run';

/**
 * The seeds a model run's card names: each seed field the app filled in, then the seed the result
 * reports it used (fal-style results carry `seed`), unless that same number is already named.
 */
export function seedsShown(run: Pick<ModelRun, 'seeds' | 'result'>): Array<[field: string, seed: number]> {
	const shown: Array<[string, number]> = Object.entries(run.seeds ?? {});
	const json = run.result?.json;
	const reported = json && typeof json === 'object' && !Array.isArray(json) ? json['seed'] : undefined;
	if (typeof reported === 'number' && !shown.some(([, seed]) => seed === reported)) shown.push(['seed', reported]);
	return shown;
}
