/**
 * The workflow emulator's own cost. A 20-step KSampler run streams 20 previews: for each, the time
 * from the step's end to the frame being written to the socket (target p95 < 5 ms), split into the
 * preview encode and the frame send. Then 50 concurrent sockets must each receive every event of a
 * run. The receiving sockets live in a worker thread, so their parsing does not run on the
 * emulator's event loop. Baseline: a bare `ws` server writing a frame of the same size.
 */
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../src/lib/workflows/protocol/workflow-api';
import { api, control, startEmulator } from '../emulator/workflow/test-support';
import type { PreviewTimer } from '../emulator/workflow/socket-hub';
import { check, report } from './support/report';

const STEPS = 20;
const SOCKETS = 50;
const RUNS = 5;

/** The client side, as plain CommonJS for an eval'd worker: opens sockets, counts what each receives. */
const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.wsPath);
let sockets = [];
parentPort.on('message', async (msg) => {
	if (msg.type === 'open') {
		sockets = await Promise.all(Array.from({ length: msg.count }, (_, i) => new Promise((resolve, reject) => {
			const ws = new WebSocket(msg.url + '&clientId=bench-' + i);
			const s = { ws, json: new Map(), frames: 0, ended: new Set(), terminal: new Set(), flags: i % 2 === 0 };
			ws.on('message', (data, isBinary) => {
				if (isBinary) { s.frames++; s.bytes = data.length; return; }
				const m = JSON.parse(String(data));
				if (m.type === 'feature_flags') { resolve(s); return; }
				const id = m.data && m.data.prompt_id;
				if (!id) return;
				s.json.set(id, (s.json.get(id) || 0) + 1);
				if (m.type === 'executing' && (m.data.node === null || m.data.node === '')) s.ended.add(id);
				if (m.type === 'execution_success' || m.type === 'execution_error' || m.type === 'execution_interrupted') s.terminal.add(id);
			});
			ws.once('open', () => { if (s.flags) ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } })); else resolve(s); });
			ws.once('error', reject);
		})));
		parentPort.postMessage({ type: 'opened' });
	} else if (msg.type === 'reset') {
		for (const s of sockets) s.frames = 0;
		parentPort.postMessage({ type: 'reset' });
	} else if (msg.type === 'wait') {
		const started = Date.now();
		while (!sockets.every((s) => s.ended.has(msg.promptId) && s.terminal.has(msg.promptId))) {
			if (Date.now() - started > 60000) break;
			await new Promise((r) => setTimeout(r, 5));
		}
		parentPort.postMessage({ type: 'counts', counts: sockets.map((s) => ({ json: s.json.get(msg.promptId) || 0, frames: s.frames, bytes: s.bytes || 0 })) });
	} else if (msg.type === 'close') {
		for (const s of sockets) s.ws.close();
		parentPort.postMessage({ type: 'closed' });
	}
});
`;

class Clients {
	private readonly worker = new Worker(CLIENTS, { eval: true, workerData: { wsPath: createRequire(import.meta.url).resolve('ws') } });
	private ask<T>(message: Record<string, unknown>): Promise<T> {
		return new Promise((resolve) => {
			this.worker.once('message', resolve);
			this.worker.postMessage(message);
		});
	}
	open(url: string, count: number) {
		return this.ask({ type: 'open', url, count });
	}
	reset() {
		return this.ask({ type: 'reset' });
	}
	wait(promptId: string) {
		return this.ask<{ counts: Array<{ json: number; frames: number; bytes: number }> }>({ type: 'wait', promptId });
	}
	async close() {
		await this.ask({ type: 'close' });
		await this.worker.terminate();
	}
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function baselineSendMs(bytes: number, samples = 40): Promise<number[]> {
	const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
	await new Promise<void>((r) => server.once('listening', () => r()));
	const port = (server.address() as { port: number }).port;
	const client = new WebSocket(`ws://127.0.0.1:${port}`);
	const socket = await new Promise<WebSocket>((resolve) => server.once('connection', resolve));
	await new Promise<void>((r) => (client.readyState === client.OPEN ? r() : client.once('open', () => r())));
	const frame = new Uint8Array(bytes).fill(7);
	const times: number[] = [];
	for (let i = 0; i < samples; i++) {
		const start = performance.now();
		await new Promise<void>((r) => socket.send(frame, { binary: true }, () => r()));
		times.push(performance.now() - start);
		await new Promise((r) => setTimeout(r, 5));
	}
	client.close();
	server.close();
	return times;
}

const emu = await startEmulator();
const setTimer = (timer: PreviewTimer | undefined) => {
	emu.workflow.hub.previewTimer = timer;
};
const wsUrl = `${emu.urls.workflow.replace('http', 'ws')}/ws?token=${encodeURIComponent(emu.apiKey)}`;
const prompt = JSON.parse(JSON.stringify(textToImage)) as ApiPrompt;
prompt['3']!.inputs['steps'] = STEPS;
const submit = async (seed: number) => {
	prompt['3']!.inputs['seed'] = seed;
	return (await api(emu).submit(prompt)).body['prompt_id'] as string;
};

try {
	await control(emu, '/workflow/timing', { stepMs: 25 });
	console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} (other processes lengthen the tail)`);

	// One socket (asking for type-4 frames); a warm-up run first, then RUNS runs with new seeds (no cache hits).
	const one = new Clients();
	await one.open(wsUrl, 1);
	await one.wait(await submit(1));
	const sinceStepEnd: number[] = [];
	const sinceImageReady: number[] = [];
	let frameBytes = 0;
	const perRun: number[] = [];
	setTimer((t) => {
		sinceStepEnd.push(t.sinceStepEndMs);
		sinceImageReady.push(t.sinceImageReadyMs);
	});
	for (let run = 0; run < RUNS; run++) {
		await one.reset();
		const { counts } = await one.wait(await submit(1000 + run));
		perRun.push(counts[0]!.frames);
		frameBytes = counts[0]!.bytes;
	}
	setTimer(undefined);
	await one.close();
	const baseline = await baselineSendMs(frameBytes);
	console.log(
		`${RUNS} runs of a 20-step KSampler: preview frames per run ${perRun.join(', ')} (expected ${STEPS}), ${sinceStepEnd.length} samples`
	);
	console.log(
		`  step end -> frame written (incl. JPEG preview encode): p50 ${fmt(percentile(sinceStepEnd, 50))}  p95 ${fmt(percentile(sinceStepEnd, 95))}  max ${fmt(Math.max(...sinceStepEnd))}  (target p95 < 5 ms)`
	);
	console.log(
		`  preview ready -> frame written (frame encode + send):  p50 ${fmt(percentile(sinceImageReady, 50))}  p95 ${fmt(percentile(sinceImageReady, 95))}`
	);
	console.log(
		`  baseline bare ws send of a ${(frameBytes / 1024).toFixed(1)} KiB frame:             p50 ${fmt(percentile(baseline, 50))}  p95 ${fmt(percentile(baseline, 95))}  ratio p95 ${(percentile(sinceImageReady, 95) / percentile(baseline, 95)).toFixed(1)}x`
	);
	report({
		name: 'step end to preview frame written, p95 (baseline: a bare ws send)',
		figure: percentile(sinceStepEnd, 95),
		unit: 'ms',
		baseline: percentile(baseline, 95),
		target: '< 5 ms',
		met: percentile(sinceStepEnd, 95) < 5
	});
	check(
		`every run sent its ${STEPS} preview frames`,
		perRun.every((n) => n === STEPS),
		perRun.join(', ')
	);

	// 50 sockets, half asking for preview metadata: every one must see every event of the run.
	const many = new Clients();
	await many.open(wsUrl, SOCKETS);
	const fanout: number[] = [];
	setTimer((t) => fanout.push(t.sinceStepEndMs));
	await many.reset();
	const started = performance.now();
	const { counts } = await many.wait(await submit(99));
	const elapsed = performance.now() - started;
	setTimer(undefined);
	await many.close();
	const distinct = new Set(counts.map((c) => `${c.json}/${c.frames}`));
	console.log(
		`${SOCKETS} concurrent sockets: job events/preview frames per socket ${[...distinct].join(', ')} (${distinct.size === 1 ? 'all identical' : 'MISMATCH'}), run took ${elapsed.toFixed(0)} ms`
	);
	console.log(
		`  step end -> each of the ${SOCKETS} frames written: p50 ${fmt(percentile(fanout, 50))}  p95 ${fmt(percentile(fanout, 95))}`
	);
	report({ name: `step end to each of ${SOCKETS} sockets' frames written, p95`, figure: percentile(fanout, 95), unit: 'ms' });
	check(
		`all ${SOCKETS} sockets saw every event and frame`,
		distinct.size === 1 && counts.every((c) => c.frames === STEPS),
		[...distinct].join(', ')
	);
} finally {
	await emu.close();
}
