/**
 * The same progress flood, 500 events/s for 8 s, reaching the run page of the built app by its two
 * live paths in one run: the v1 socket (a demo-profile run, `prompt_id` events) and a v2 job's SSE
 * stream (a Cloud-profile run on `/api/v2`, read by the worker with fetch, as complete snapshots).
 * Target for both: at most one paint per frame (paints/s <= the display rate in the same trace), and
 * the page ends showing the last event. Ends by itself (watchdog: 4 minutes).
 */
import { cpus, loadavg } from 'node:os';
import type { Browser } from '@playwright/test';
import { control, launchChromium, openRunningRun, openV2Run, startEmulator, type RunningRun } from './support/app-run';
import { FLOOD_PROBE, phase, secondsUntilShown, show, type Phase } from './support/flood-trace';
import { ratio, verdict } from './support/stats';
import { check, report } from './support/report';
import { watchdog } from './support/watchdog';

const PER_SECOND = 500;
const SECONDS = 8;
const COUNT = PER_SECOND * SECONDS;

interface Sent {
	sent: number;
	elapsedMs: number;
	maxLagMs: number;
	streams?: number;
}

/** Floods the page through `send`, then waits for it to show the last step. */
async function flood(browser: Browser, run: RunningRun, name: string, send: () => Promise<Sent>): Promise<Phase & { caughtUpS?: number }> {
	const measured = await phase(
		browser,
		run.page,
		send().then((a) =>
			console.log(
				`  ${name}: the emulator sent ${a.sent} events in ${(a.elapsedMs / 1000).toFixed(1)} s, at most ${a.maxLagMs.toFixed(1)} ms behind${a.streams !== undefined ? `, to ${a.streams} stream(s)` : ''}`
			)
		),
		SECONDS
	);
	const caughtUpS = await secondsUntilShown(run.page, `step ${COUNT} of ${COUNT}`);
	return { ...measured, ...(caughtUpS !== undefined ? { caughtUpS } : {}) };
}

watchdog(4);
const emulator = await startEmulator();
// The v2 run's service: an emulator of its own, so its engine is free while the v1 run holds the first.
const v2Service = await startEmulator();
try {
	console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} (other processes lengthen the tail)`);
	console.log(`${PER_SECOND} progress events/s for ${SECONDS} s (${COUNT} events), over each path in turn, on one page`);
	const browser = await launchChromium();
	try {
		const run = await openRunningRun(emulator, browser, FLOOD_PROBE);
		try {
			const v1 = await flood(browser, run, 'v1 socket', () =>
				run.control<Sent>('workflow/bench/progress', { promptId: run.promptId, count: COUNT, perSecond: PER_SECOND })
			);
			const jobId = await openV2Run(run, v2Service);
			const v2 = await flood(browser, run, 'v2 SSE', () =>
				control<Sent>(v2Service, 'v2/bench/progress', { jobId, count: COUNT, perSecond: PER_SECOND })
			);
			for (const [name, p] of [
				['v1 socket', v1],
				['v2 SSE   ', v2]
			] as const) {
				show(name, p);
				const oneEach = p.paints <= p.displayRate * 1.05;
				console.log(
					`    ${name}: ${p.paints.toFixed(1)} paints/s for ${p.displayRate.toFixed(1)} frames/s (${ratio(p.paints, p.displayRate)}): at most one paint per frame ${verdict(oneEach)}; last event shown ${p.caughtUpS === undefined ? 'NEVER' : `${p.caughtUpS.toFixed(1)} s after the flood`}`
				);
				report({
					name: `${name.trim()}: paints/s under ${PER_SECOND} progress events/s (baseline: the display rate)`,
					figure: p.paints,
					unit: 'paints/s',
					baseline: p.displayRate,
					target: '<= 1.05x baseline',
					met: oneEach
				});
				check(`${name.trim()}: the page showed the last event`, p.caughtUpS !== undefined);
			}
			console.log(`  v2 paints/s against v1 in the same run: ${ratio(v2.paints, v1.paints)}`);
		} finally {
			await run.close();
		}
	} finally {
		await browser.close();
	}
} finally {
	await emulator.close();
	await v2Service.close();
}
