/**
 * Resume after a reload (issue 7): 50 runs the app knows only as "sent" are re-attached when the
 * page loads; the figure is the time from navigation until every one shows its real state (stored
 * by the worker), against one status round trip per run, all in parallel, from the same page.
 */
import { newWorkflowRun, type WorkflowRun } from '../src/lib/workflows/rules/run-record';
import { workflowEntry } from '../src/lib/core/rules/run-entry';
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../src/lib/workflows/protocol/workflow-api';
import { demoConfig, serveApp } from '../scripts/serve-app';
import { timelineKey } from '../src/lib/timeline/worker/timeline-service';
import { control, launchChromium, startEmulator } from './support/app-run';
import { seedAppStore } from './support/app-store';
import { median, ratio } from './support/stats';
import { report } from './support/report';
import { benchContext } from './support/wait';

const RUNS = 50;
const ROUNDS = 3;

// In-page code is passed as strings: tsx's name-keeping helper (__name) does not exist in the page.
const UNTIL_ALL_KNOWN = (ids: string[]) => `new Promise((resolve) => {
	const ids = ${JSON.stringify(ids)};
	const check = async () => {
		const db = await new Promise((r) => { const o = indexedDB.open('runboard'); o.onsuccess = () => r(o.result); });
		const states = await Promise.all(ids.map((id) => new Promise((r) => {
			const q = db.transaction('kv').objectStore('kv').get('run:' + id);
			q.onsuccess = () => r(q.result && q.result.status);
		})));
		db.close();
		if (states.every((s) => s && s !== 'submitting')) resolve({ at: performance.now(), states });
		else setTimeout(check, 10);
	};
	check();
})`;

const PARALLEL_STATUS = (base: string, key: string, promptIds: string[]) => `(async () => {
	const start = performance.now();
	await Promise.all(${JSON.stringify(promptIds)}.map((id) =>
		fetch('${base}/api/job/' + id + '/status', { headers: { 'X-API-Key': '${key}' }, cache: 'no-store' }).then((r) => r.json())));
	return performance.now() - start;
})()`;

const emulator = await startEmulator();
const app = await serveApp({ root: 'build', config: demoConfig(emulator) });
const browser = await launchChromium();
try {
	// Jobs that stay put: one runs (a minute a step), the rest wait behind it.
	await control(emulator, 'workflow/timing', { stepMs: 60_000 });
	const promptIds: string[] = [];
	for (let i = 0; i < RUNS; i++) {
		const prompt = structuredClone(textToImage) as ApiPrompt;
		prompt['3']!.inputs['seed'] = 1000 + i;
		const res = await fetch(`${emulator.urls.workflow}/api/prompt`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-API-Key': emulator.apiKey },
			body: JSON.stringify({ prompt, client_id: 'another-device' })
		});
		promptIds.push(((await res.json()) as { prompt_id: string }).prompt_id);
	}

	const resume: number[] = [];
	const parallel: number[] = [];
	let states: string[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		const context = await benchContext(browser, { serviceWorkers: 'block' });
		const page = await context.newPage();
		await page.goto(`${app.url}/`);
		await page.getByRole('heading', { name: 'Runs' }).waitFor();
		parallel.push((await page.evaluate(PARALLEL_STATUS(emulator.urls.workflow, emulator.apiKey, promptIds))) as number);

		const runs: WorkflowRun[] = promptIds.map((promptId, i) => ({
			...newWorkflowRun({
				id: `resume-${round}-${i}`,
				profileId: 'demo',
				title: `Run ${i}`,
				workflowId: null,
				prompt: textToImage as ApiPrompt,
				seeds: {},
				partner: false,
				now: Date.now() - 60_000
			}),
			promptId
		}));
		await seedAppStore(page, [
			...runs.map((r): [string, unknown] => [`run:${r.id}`, r]),
			...runs.map((r): [string, unknown] => [`open:${r.id}`, true]),
			...runs.map((r): [string, unknown] => [`prompt:${r.promptId}`, r.id]),
			...runs.map((r): [string, unknown] => [timelineKey(r), workflowEntry(r)])
		]);
		await page.goto(`${app.url}/`, { waitUntil: 'commit' });
		const known = (await page.evaluate(UNTIL_ALL_KNOWN(runs.map((r) => r.id)))) as { at: number; states: string[] };
		resume.push(known.at);
		states = known.states;
		await context.close();
	}

	const counts = states.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
	const r = median(resume);
	const p = median(parallel);
	console.log(`resume after a reload: ${RUNS} unfinished runs, median of ${ROUNDS} reloads`);
	console.log(
		`  navigation to every run showing its real state  ${r.toFixed(0)} ms  (${Object.entries(counts)
			.map(([s, n]) => `${n} ${s}`)
			.join(', ')})`
	);
	console.log(`  baseline: ${RUNS} status round trips in parallel   ${p.toFixed(0)} ms  ratio ${ratio(r, p)} (includes the app's boot)`);
	report({
		name: `navigation to ${RUNS} resumed runs showing their state (baseline: parallel status reads)`,
		figure: r,
		unit: 'ms',
		baseline: p
	});
} finally {
	await browser.close();
	await app.close();
	await emulator.close();
}
