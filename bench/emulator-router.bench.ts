/**
 * The model router under load: walks the whole catalog (pages, details, schema documents), then
 * submits 200 queued requests at once, each under its own Idempotency-Key and each submitted twice,
 * polls them to COMPLETED and collects them. Prints requests per second and p95 latency per phase,
 * against a baseline (the cheapest route of the same server), and fails unless every key was
 * dispatched and charged exactly once.
 */
import { createEmulator } from '../emulator/index';
import { counterKey } from '../emulator/router/idempotency';
import type { RouterModelListResponse, RouterQueueStatusResponse, RouterQueueSubmitResponse } from '../src/lib/models/protocol/router-api';
import { check, report } from './support/report';

const QUEUED = 200;
const emu = await createEmulator({ ports: { workflow: 0, router: 0, storage: 0, cdn: 0, deployment: 0, selfHosted: 0 } });
const base = emu.urls.router;
const auth = { 'X-API-Key': emu.apiKey };

interface Phase {
	name: string;
	latencies: number[];
	startedAt: number;
	endedAt: number;
}

async function timed(phase: Phase, url: string, init: RequestInit = {}): Promise<Response> {
	const t0 = performance.now();
	const res = await fetch(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
	const body = await res.arrayBuffer();
	phase.latencies.push(performance.now() - t0);
	return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, headers: res.headers });
}

function phase(name: string): Phase {
	return { name, latencies: [], startedAt: performance.now(), endedAt: 0 };
}

function p95(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

function reportPhase(p: Phase, baselineP95: number): void {
	const seconds = (p.endedAt - p.startedAt) / 1000;
	const rps = p.latencies.length / seconds;
	console.log(
		`${p.name.padEnd(34)} ${String(p.latencies.length).padStart(5)} req  ${rps.toFixed(0).padStart(6)} req/s  p95 ${p95(p.latencies).toFixed(1).padStart(7)} ms  (${(p95(p.latencies) / baselineP95).toFixed(1)}x baseline)`
	);
}

async function control(path: string, body: unknown): Promise<void> {
	await fetch(`${base}/__emulator${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

try {
	// Baseline: the cheapest route of the same server, sequentially.
	const baseline = phase('baseline GET /__emulator/counters');
	for (let i = 0; i < 200; i++) await timed(baseline, `${base}/__emulator/counters`);
	baseline.endedAt = performance.now();
	const baseP95 = p95(baseline.latencies);

	// Walk the catalog at the default page size, then every detail and schema document, 16 at a time.
	const walk = phase('catalog walk (default page size)');
	const ids: string[] = [];
	let cursor: string | undefined;
	do {
		const res = await timed(walk, `${base}/v2/models${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
		const page = (await res.json()) as RouterModelListResponse;
		ids.push(...page.data.map((m) => m.id));
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	walk.endedAt = performance.now();

	const details = phase('details + schema documents (x16)');
	const queue = [...ids];
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			for (let id = queue.shift(); id; id = queue.shift()) {
				await timed(details, `${base}/v2/models/${id}`);
				await timed(details, `${base}/v2/models/${id}/openapi.json`);
			}
		})
	);
	details.endedAt = performance.now();

	// 200 queued requests at once, each submitted twice under its key (a retry), all admitted together.
	await control('/router/settings', { providerMs: 300, queueConcurrency: QUEUED, spendLimitCents: 1_000_000, inFlightLimit: 1_000 });
	const models = ['stratus/sd-3', 'quill/quill-3', 'sonora/speech-1', 'lumen/flux-1'];
	const inputFor = (i: number, model: string): unknown =>
		model.startsWith('sonora')
			? { text: `Run ${i} finished.` }
			: model.startsWith('lumen')
				? { prompt: `bench ${i}`, image_size: 'square' }
				: { prompt: `bench ${i}` };
	const submitPhase = phase(`submit ${QUEUED} queued x2 (same key)`);
	const submissions = await Promise.all(
		Array.from({ length: QUEUED }, async (_, i) => {
			const model = models[i % models.length]!;
			const init = {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${i}` },
				body: JSON.stringify(inputFor(i, model))
			};
			const [a, b] = await Promise.all([
				timed(submitPhase, `${base}/v2/models/${model}/requests`, init),
				timed(submitPhase, `${base}/v2/models/${model}/requests`, init)
			]);
			const first = (await a.json()) as RouterQueueSubmitResponse;
			const second = (await b.json()) as RouterQueueSubmitResponse;
			if (a.status !== 201 || b.status !== 201 || first.request_id !== second.request_id)
				throw new Error(`submission ${i}: ${a.status}/${b.status}`);
			return first;
		})
	);
	submitPhase.endedAt = performance.now();

	const pollPhase = phase('status polls until COMPLETED');
	await Promise.all(
		submissions.map(async (s) => {
			for (;;) {
				const status = (await (await timed(pollPhase, s.status_url)).json()) as RouterQueueStatusResponse;
				if (status.status === 'COMPLETED') {
					if (status.error_type) throw new Error(`${s.request_id} failed: ${status.error_type}`);
					return;
				}
				await new Promise((r) => setTimeout(r, 50));
			}
		})
	);
	pollPhase.endedAt = performance.now();

	const collectPhase = phase(`collect ${QUEUED} results`);
	await Promise.all(
		submissions.map(async (s) => {
			const res = await timed(collectPhase, s.response_url);
			if (res.status !== 200) throw new Error(`collect ${s.request_id}: ${res.status}`);
		})
	);
	collectPhase.endedAt = performance.now();

	console.log(`catalog: ${ids.length} models; ${QUEUED} queued requests, provider time 300 ms, all admitted at once`);
	for (const p of [baseline, walk, details, submitPhase, pollPhase, collectPhase]) {
		reportPhase(p, baseP95);
		if (p !== baseline) report({ name: `${p.name}, p95`, figure: p95(p.latencies), unit: 'ms', baseline: baseP95 });
	}

	const counters = emu.state.counters;
	const keys = Array.from({ length: QUEUED }, (_, i) => counterKey('ws:ws_demo', `bench-${i}`));
	const badDispatch = keys.filter((k) => counters.dispatches[k] !== 1);
	const badCharge = keys.filter((k) => counters.charges[k] !== 1);
	console.log(
		`dispatches per key: ${badDispatch.length === 0 ? 'exactly 1 for all ' + QUEUED : `WRONG for ${badDispatch.length}`}; charges per key: ${badCharge.length === 0 ? 'exactly 1' : `WRONG for ${badCharge.length}`}`
	);
	check('every key dispatched once', badDispatch.length === 0, `${badDispatch.length} keys wrong`);
	check('every key charged once', badCharge.length === 0, `${badCharge.length} keys wrong`);
} finally {
	await emu.close();
}
