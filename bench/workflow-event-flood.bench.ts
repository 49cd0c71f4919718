/**
 * An event flood on the run page of the built app: the emulator sends 5,000 `progress` events/s for
 * 10 s for a real run's prompt id. Figures: paints per second of the page (Chromium trace `Paint`
 * events on its main thread), target at most the display rate (its animation frames per second in
 * the same trace, kept ticking by a requestAnimationFrame loop); and the input delay of clicks during the flood (a capture
 * click handler's `performance.now() - event.timeStamp`), target < 100 ms. Baseline: the same
 * page, idle, in the same run.
 */
import { cpus, loadavg } from 'node:os';
import { launchChromium, openRunningRun, startEmulator } from './support/app-run';
import { median, ratio, verdict } from './support/stats';
import { watchdog } from './support/watchdog';
import { FLOOD_PROBE, phase, secondsUntilShown, show } from './support/flood-trace';
import { check, report } from './support/report';

const PER_SECOND = 5000;
const SECONDS = 10;
const IDLE_SECONDS = 5;

watchdog(3);
const emulator = await startEmulator();
try {
	console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} (other processes lengthen the tail)`);
	const browser = await launchChromium();
	try {
		const run = await openRunningRun(emulator, browser, FLOOD_PROBE);
		try {
			const count = PER_SECOND * SECONDS;
			console.log(`${PER_SECOND} progress events/s for ${SECONDS} s (${count} events) for prompt ${run.promptId}`);
			const idle = await phase(browser, run.page, new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000)), IDLE_SECONDS);
			const flood = await phase(
				browser,
				run.page,
				run
					.control<{ sent: number; elapsedMs: number; maxLagMs: number }>('workflow/bench/progress', {
						promptId: run.promptId,
						count,
						perSecond: PER_SECOND
					})
					.then((a) => {
						console.log(
							`  (emulator sent ${a.sent} events in ${(a.elapsedMs / 1000).toFixed(1)} s, at most ${a.maxLagMs.toFixed(1)} ms behind schedule)`
						);
					}),
				SECONDS
			);
			// The page must end showing the last event: nothing lost, nothing stuck behind the flood.
			const last = await secondsUntilShown(run.page, `step ${count} of ${count}`);
			show('idle run page (baseline)', idle);
			show('during the flood', flood);
			console.log(
				`  paints/s ${flood.paints.toFixed(1)} (target <= the display rate, ${flood.displayRate.toFixed(1)}): ${verdict(flood.paints <= flood.displayRate * 1.05)}; ${ratio(flood.paints, flood.displayRate)} of it; idle ${idle.paints.toFixed(1)}/s`
			);
			const worst = Math.max(...flood.clickDelays);
			console.log(
				`  click input delay during the flood: median ${median(flood.clickDelays).toFixed(1)} ms, max ${worst.toFixed(1)} ms (target < 100 ms): ${verdict(worst < 100)}; ratio to idle max ${ratio(worst, Math.max(...idle.clickDelays))}`
			);
			report({
				name: `run page under ${PER_SECOND} progress events/s: paints/s (baseline: the display rate)`,
				figure: flood.paints,
				unit: 'paints/s',
				baseline: flood.displayRate,
				target: '<= 1.05x baseline',
				met: flood.paints <= flood.displayRate * 1.05
			});
			report({
				name: 'click input delay during the flood, max (baseline: idle max)',
				figure: worst,
				unit: 'ms',
				baseline: Math.max(...idle.clickDelays),
				target: '< 100 ms',
				met: worst < 100
			});
			if (last !== undefined) console.log(`  the page showed the last event ${last.toFixed(1)} s after the flood ended`);
			check(`the page showed step ${count} of ${count}`, last !== undefined, 'events were lost or the page fell behind');
			check('clicks reached the page during the flood', flood.clickDelays.length > 0);
		} finally {
			await run.close();
		}
	} finally {
		await browser.close();
	}
} finally {
	await emulator.close();
}
