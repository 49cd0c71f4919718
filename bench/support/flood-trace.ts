/**
 * Paints, frames and click delays of a run page while a stream of events floods it: a Chromium trace
 * of the page's main thread, and a capture click handler's `performance.now() - event.timeStamp`.
 * Shared by the event-flood benchmarks (v1 socket, v2 SSE).
 */
import type { Browser, Page } from '@playwright/test';

const CLICK_EVERY_MS = 1000;

export const FLOOD_PROBE = `(() => {
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
export function countTrace(trace: Buffer): TraceCounts {
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

export interface Phase {
	seconds: number;
	/** Per second, over the traced span. */
	paints: number;
	layouts: number;
	displayRate: number;
	clickDelays: number[];
}

/** Traces the page while `during` runs, clicking a harmless control (a <details> summary) every second. */
export async function phase(browser: Browser, page: Page, during: Promise<unknown>, seconds: number): Promise<Phase> {
	const summary = page.getByText('The workflow as sent (API format)');
	// The caller has started `during` already: under a flood on a loaded machine the scroll waits for
	// the page for as long as the flood lasts (10 s of a 5,000 events/s flood went past the 10 s default).
	await summary.scrollIntoViewIfNeeded({ timeout: (seconds + 20) * 1000 });
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

export function show(name: string, p: Phase): void {
	const delays = p.clickDelays.map((d) => d.toFixed(1)).join(', ');
	console.log(
		`  ${name} (${p.seconds.toFixed(1)} s): ${p.paints.toFixed(1)} paints/s, ${p.layouts.toFixed(1)} layouts/s, display rate ${p.displayRate.toFixed(1)} frames/s; click input delays ${delays || 'none recorded'} ms`
	);
}

/** Seconds until the page shows `text` (the flood's last event), or undefined after 15 s: nothing lost, nothing stuck. */
export async function secondsUntilShown(page: Page, text: string): Promise<number | undefined> {
	const start = Date.now();
	return page
		.getByText(text)
		.waitFor({ timeout: 15_000 })
		.then(() => (Date.now() - start) / 1000)
		.catch(() => undefined);
}
