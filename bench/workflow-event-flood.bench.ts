/**
 * An event flood on the run page of the built app: the emulator sends 5,000 `progress` events/s for
 * 10 s for a real run's prompt id. Figures: paints per second of the page (Chromium trace `Paint`
 * events on its main thread), target at most the display rate (its animation frames per second in
 * the same trace, kept ticking by a requestAnimationFrame loop); and the input delay of clicks during the flood (a capture
 * click handler's `performance.now() - event.timeStamp`), target < 100 ms. Baseline: the same
 * page, idle, in the same run.
 */
import { cpus, loadavg } from 'node:os';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, openRunningRun, startEmulator } from './support/app-run';
import { median, ratio, verdict } from './support/stats';
import { watchdog } from './support/watchdog';

const PER_SECOND = 5000;
const SECONDS = 10;
const IDLE_SECONDS = 5;
const CLICK_EVERY_MS = 1000;

const FLOOD_PROBE = `(() => {
	const probe = (window.__benchFlood = { clickDelays: [] });
	const tick = () => requestAnimationFrame(tick);
	requestAnimationFrame(tick);
	addEventListener('click', (event) => probe.clickDelays.push(performance.now() - event.timeStamp), { capture: true });
})()`;

interface FloodProbe {
	clickDelays: number[];
}

interface TraceEvent {
	name: string;
	ph: string;
	pid: number;
	tid: number;
	ts: number;
	dur?: number;
	args?: { name?: string };
}

interface TraceCounts {
	seconds: number;
	frames: number;
	paints: number;
	layouts: number;
}

/**
 * From the renderer main thread with the most animation frames: its span, its frames (our rAF loop
 * fires in every one, so this is the display rate), its paints (top-level `Paint` events: one frame's
 * paint nests #document and HTML) and its layouts.
 */
function countTrace(trace: Buffer): TraceCounts {
	const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
	const mains = new Set(
		events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`)
	);
	const byThread = new Map<string, TraceEvent[]>();
	for (const e of events) {
		const key = `${e.pid}:${e.tid}`;
		if (mains.has(key) && e.ph === 'X') byThread.set(key, [...(byThread.get(key) ?? []), e]);
	}
	const count = (list: TraceEvent[], name: string) => list.filter((e) => e.name === name).length;
	const busiest = [...byThread.values()].sort((a, b) => count(b, 'FireAnimationFrame') - count(a, 'FireAnimationFrame'))[0] ?? [];
	let paints = 0;
	let paintEnd = -Infinity;
	for (const e of busiest.filter((x) => x.name === 'Paint').sort((a, b) => a.ts - b.ts)) {
		if (e.ts < paintEnd) continue;
		paints++;
		paintEnd = e.ts + (e.dur ?? 0);
	}
	const times = busiest.map((e) => e.ts);
	const seconds = times.length ? (Math.max(...times) - Math.min(...times)) / 1e6 : 0;
	return { seconds, frames: count(busiest, 'FireAnimationFrame'), paints, layouts: count(busiest, 'Layout') };
}

interface Phase {
	seconds: number;
	/** Per second, over the traced span. */
	paints: number;
	layouts: number;
	displayRate: number;
	clickDelays: number[];
}

/** Traces the page while `during` runs, clicking a harmless control (a <details> summary) every second. */
async function phase(browser: Browser, page: Page, during: Promise<unknown>, seconds: number): Promise<Phase> {
	const summary = page.getByText('The workflow as sent (API format)');
	await summary.scrollIntoViewIfNeeded();
	const box = (await summary.boundingBox())!;
	await page.evaluate(() => ((window as unknown as { __benchFlood: FloodProbe }).__benchFlood.clickDelays = []));
	await browser.startTracing(page, { categories: ['devtools.timeline'] });
	const started = Date.now();
	let done = false;
	void during.finally(() => (done = true));
	while (!done || Date.now() - started < seconds * 1000) {
		await page.waitForTimeout(CLICK_EVERY_MS);
		if (Date.now() - started >= seconds * 1000) break;
		await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
	}
	await during;
	const counts = countTrace(await browser.stopTracing());
	const probe = await page.evaluate(() => (window as unknown as { __benchFlood: FloodProbe }).__benchFlood);
	const perSecond = (n: number) => (counts.seconds > 0 ? n / counts.seconds : 0);
	return {
		seconds: counts.seconds,
		paints: perSecond(counts.paints),
		layouts: perSecond(counts.layouts),
		displayRate: perSecond(counts.frames),
		clickDelays: probe.clickDelays
	};
}

function show(name: string, p: Phase): void {
	const delays = p.clickDelays.map((d) => d.toFixed(1)).join(', ');
	console.log(
		`  ${name} (${p.seconds.toFixed(1)} s): ${p.paints.toFixed(1)} paints/s, ${p.layouts.toFixed(1)} layouts/s, display rate ${p.displayRate.toFixed(1)} frames/s; click input delays ${delays || 'none recorded'} ms`
	);
}

watchdog(3);
const emulator = await startEmulator();
let failed = false;
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
			const caughtUp = Date.now();
			const last = await run.page
				.getByText(`step ${count} of ${count}`)
				.waitFor({ timeout: 15_000 })
				.then(() => (Date.now() - caughtUp) / 1000)
				.catch(() => undefined);
			show('idle run page (baseline)', idle);
			show('during the flood', flood);
			console.log(
				`  paints/s ${flood.paints.toFixed(1)} (target <= the display rate, ${flood.displayRate.toFixed(1)}): ${verdict(flood.paints <= flood.displayRate * 1.05)}; ${ratio(flood.paints, flood.displayRate)} of it; idle ${idle.paints.toFixed(1)}/s`
			);
			const worst = Math.max(...flood.clickDelays);
			console.log(
				`  click input delay during the flood: median ${median(flood.clickDelays).toFixed(1)} ms, max ${worst.toFixed(1)} ms (target < 100 ms): ${verdict(worst < 100)}; ratio to idle max ${ratio(worst, Math.max(...idle.clickDelays))}`
			);
			if (last === undefined) {
				console.log(`FAIL: the page never showed step ${count} of ${count}: events were lost or the page fell behind`);
				failed = true;
			} else console.log(`  the page showed the last event ${last.toFixed(1)} s after the flood ended`);
			if (flood.clickDelays.length === 0) {
				console.log('FAIL: no click reached the page during the flood');
				failed = true;
			}
		} finally {
			await run.close();
		}
	} finally {
		await browser.close();
	}
} finally {
	await emulator.close();
}
if (failed) process.exitCode = 1;
