/**
 * What the Runs page does to many runs at once, and the saving of a starred run's outputs. Loaded on
 * the first such press (the timeline store imports it then), so its code is not part of the first
 * view: the Runs list paints without it. Each gives the words the page says afterwards.
 */
import type { TimelineEntry } from '$lib/timeline/rules/timeline';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { CancelManyReport } from '$lib/workflows';

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/**
 * Cancels open runs: workflow jobs per server (its batch cancel where it has one, else one by one),
 * model requests one by one by their cancel URL; says what each server confirmed.
 */
export async function cancelEntries(open: readonly TimelineEntry[], profileName: (id: string) => string | undefined): Promise<string> {
	const byProfile = new Map<string, string[]>();
	for (const e of open)
		if (e.kind === 'workflow' && e.promptId) byProfile.set(e.profileId, [...(byProfile.get(e.profileId) ?? []), e.promptId]);
	const models = open.filter((e) => e.kind === 'model');
	const [servers, modelResults] = await Promise.all([
		Promise.all(
			[...byProfile].map(async ([profileId, promptIds]) => ({
				profileId,
				result: await workerApi().cancelJobs({ profileId, promptIds })
			}))
		),
		Promise.all(models.map((e) => workerApi().cancelModelRun({ id: e.id })))
	]);
	const said = servers.map(({ profileId, result }) => {
		const name = profileName(profileId) ?? 'A server';
		if (!result.ok) return `${name} could not be asked: ${result.error.message}`;
		return serverCancelWords(name, result.value);
	});
	if (models.length > 0) said.push(`model requests: ${modelResults.filter((r) => r.ok).length} of ${models.length} cancels accepted`);
	return `Asked to cancel ${runs(open.length)}.${said.length ? ` ${said.join('; ')}.` : ''}`;
}

/** What one server confirmed of a Cancel of many: only a job it removed or stopped counts as cancelled. */
function serverCancelWords(name: string, report: CancelManyReport): string {
	const confirmed = report.jobs.filter((j) => 'outcome' in j && (j.outcome.kind === 'removed' || j.outcome.kind === 'interrupted')).length;
	const how = report.via === 'batch' ? 'in one batch call' : 'one by one';
	return `${name} was asked ${how} and confirmed ${confirmed} of ${report.jobs.length} cancelled`;
}

/** Downloads runs as a history file (JSON, outputs saved here included), which Import in Settings reads back. */
export async function exportEntries(ids: readonly string[]): Promise<string> {
	const blob = await workerApi().exportHistory({ withBytes: true, ids: [...ids] });
	const url = URL.createObjectURL(blob);
	const a = document.createElement('a');
	a.href = url;
	a.download = `runboard-runs-${new Date().toISOString().slice(0, 10)}.json`;
	a.click();
	setTimeout(() => URL.revokeObjectURL(url), 1000);
	return `Exported ${runs(ids.length)} (${Math.max(1, Math.round(blob.size / 1024))} KB).`;
}

/** Starts each run again with the same inputs (a model request gets a new key: a new call). */
export async function rerunEntries(entries: readonly TimelineEntry[]): Promise<string> {
	let started = 0;
	for (const e of entries) {
		if (e.kind === 'workflow') {
			const run = await workerApi().getRun({ id: e.id });
			if (run && Object.keys(run.prompt).length > 0) {
				const result = await workerApi().submitRun({
					profileId: run.profileId,
					workflowId: run.workflowId,
					title: run.title,
					prompt: run.prompt,
					seeds: run.seeds
				});
				if (result.ok) started++;
			}
		} else {
			const run = await workerApi().modelRun({ id: e.id });
			if (run) {
				const result = await workerApi().startModelRun({ profileId: run.profileId, modelId: run.modelId, body: run.body, mode: run.mode });
				if (result.ok) started++;
			}
		}
	}
	// No reload: each new run reaches the list through its own run event.
	return `Started ${runs(started)} again.`;
}

/**
 * Reads a starred workflow run's outputs (all, or the one starred) once, so their bytes are on this
 * device (the service may not keep them); says so when some could not be read, else nothing.
 */
export async function keepStarredOutputs(runId: string, output?: number): Promise<string> {
	const run = await workerApi().getRun({ id: runId });
	const indexes = output === undefined ? (run?.outputs.map((_, i) => i) ?? []) : [output];
	const missed = (await Promise.all(indexes.map((index) => (run ? workerApi().output({ runId, index }) : null)))).filter(
		(r) => r && !r.ok
	).length;
	return missed > 0
		? `Starred; ${missed} output${missed === 1 ? '' : 's'} could not be saved on this device now (the service did not give ${missed === 1 ? 'it' : 'them'}).`
		: '';
}
