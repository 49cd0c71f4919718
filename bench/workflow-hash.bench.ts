/**
 * Hashing a 1 GiB file in a Web Worker in Chromium with the app's own hasher (`blake3OfBlob`):
 * MB/s as a ratio to the same browser reading the same File to the end (`file.stream()`, nothing
 * else) in the same run, target >= 0.9; and the peak extra RSS of the renderer (which hosts the
 * worker) while hashing, over idle, target < 64 MiB. The digest must equal `b3sum`'s. Every run gets a
 * new, warmed-up worker and idle is sampled just before it, so no run is charged (or credited) with
 * the garbage an earlier run left on the heap.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { build } from 'esbuild';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/browser';
import { rendererPids, sampleRss } from './support/process-memory';
import { serveStatic } from './support/static-server';
import { median, mib, ratio, verdict } from './support/stats';
import { check, report } from './support/report';
import { watchdog } from './support/watchdog';

const SIZE = 1024 * 1024 * 1024;
const ROUNDS = 3;
const HASH_MEMORY_BYTES = 256 * 1024 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The worker: the app's hasher, or a plain read of the same File, timed inside the worker. */
const WORKER_ENTRY = `
import { createBlake3 } from '../rules/hash/blake3';
import { blake3OfBlob } from './file-hasher';
self.onmessage = async (event) => {
	const { file, mode } = event.data;
	try {
		const started = performance.now();
		let digest = '';
		if (mode === 'hash') digest = await blake3OfBlob(file);
		else if (mode === 'hash-memory') {
			// The hasher's own ceiling: the same WASM over bytes already in memory, no reading at all.
			const hasher = await createBlake3();
			const slice = new Uint8Array(1024 * 1024).fill(7);
			for (let i = 0; i < ${HASH_MEMORY_BYTES} / slice.length; i++) hasher.update(slice);
			digest = hasher.digestHex();
		} else {
			const reader = file.stream().getReader();
			for (;;) if ((await reader.read()).done) break;
		}
		self.postMessage({ ms: performance.now() - started, digest });
	} catch (error) {
		self.postMessage({ error: String(error) });
	}
};
`;

const PAGE = `<!doctype html><meta charset="utf-8"><title>hash bench</title>
<input type="file" id="file">
<script>
let worker;
window.inWorker = (mode, useTiny) => new Promise((resolve) => {
	worker.onmessage = (event) => resolve(event.data);
	const file = useTiny ? new Blob([new Uint8Array(3 * 1024 * 1024 + 7)]) : document.getElementById('file').files[0];
	worker.postMessage({ file, mode });
});
// Each measurement gets a new, warmed-up worker, so no run starts with another's garbage on its heap.
window.freshWorker = async () => {
	worker?.terminate();
	worker = new Worker('/worker.js');
	await window.inWorker('hash', true);
};
</script>`;

async function bundleWorker(): Promise<string> {
	const result = await build({
		stdin: { contents: WORKER_ENTRY, resolveDir: join(root, 'src/lib/workflows/worker'), loader: 'ts', sourcefile: 'hash-bench-worker.ts' },
		bundle: true,
		format: 'iife',
		target: 'es2022',
		minify: true,
		write: false,
		logLevel: 'error'
	});
	return result.outputFiles[0]!.text;
}

/** 1 GiB of incompressible bytes: one random MiB written 1024 times. */
function writeBigFile(path: string): void {
	const block = randomBytes(1024 * 1024);
	const fd = openSync(path, 'w');
	try {
		for (let written = 0; written < SIZE; written += block.length) writeSync(fd, block);
	} finally {
		closeSync(fd);
	}
}

interface Outcome {
	ms: number;
	digest: string;
	extraRss: number;
	idleRss: number;
}

async function timed(page: Page, mode: 'hash' | 'read' | 'hash-memory', pids: number[]): Promise<Outcome> {
	await page.evaluate(() => (window as unknown as { freshWorker(): Promise<void> }).freshWorker());
	await new Promise((resolve) => setTimeout(resolve, 500));
	const sampler = sampleRss(pids);
	const idle = sampler.now();
	const answer = await page.evaluate(
		(m) =>
			(window as unknown as { inWorker(m: string, tiny: boolean): Promise<{ ms: number; digest: string; error?: string }> }).inWorker(
				m,
				false
			),
		mode
	);
	const peak = sampler.stop();
	if (answer.error) throw new Error(`${mode} failed in the worker: ${answer.error}`);
	return { ms: answer.ms, digest: answer.digest, extraRss: peak - idle, idleRss: idle };
}

const dir = mkdtempSync(join(tmpdir(), 'runboard-bench-hash-'));
const bigFile = join(dir, 'one-gib.bin');
watchdog(5, () => rmSync(dir, { recursive: true, force: true }));
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
const server = await serveStatic({
	'/': { type: 'text/html; charset=utf-8', body: PAGE },
	'/worker.js': { type: 'text/javascript', body: await bundleWorker() }
});
try {
	writeBigFile(bigFile);
	const expected = execFileSync('b3sum', ['--no-names', bigFile], { encoding: 'utf8' }).trim();
	const page = await browser.newPage();
	await page.goto(server.url);
	await page.setInputFiles('#file', bigFile);
	const pids = rendererPids();
	const reads: Outcome[] = [];
	const hashes: Outcome[] = [];
	const inMemory: Outcome[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		reads.push(await timed(page, 'read', pids));
		hashes.push(await timed(page, 'hash', pids));
		inMemory.push(await timed(page, 'hash-memory', pids));
	}
	const mbps = (o: Outcome) => SIZE / 1e6 / (o.ms / 1000);
	const readMbps = median(reads.map(mbps));
	const hashMbps = median(hashes.map(mbps));
	const wrong = hashes.filter((h) => h.digest !== expected);
	console.log(`1 GiB File in a Web Worker, ${ROUNDS} rounds each (renderers watched: ${pids.length}); MB = 10^6 bytes`);
	console.log(`  plain read (baseline): ${reads.map((o) => mbps(o).toFixed(0)).join(', ')} MB/s, median ${readMbps.toFixed(0)}`);
	console.log(`  blake3OfBlob:          ${hashes.map((o) => mbps(o).toFixed(0)).join(', ')} MB/s, median ${hashMbps.toFixed(0)}`);
	const memoryMbps = median(inMemory.map((o) => HASH_MEMORY_BYTES / 1e6 / (o.ms / 1000)));
	console.log(
		`  (ceiling) the BLAKE3 kernel alone over 256 MiB already in memory: median ${memoryMbps.toFixed(0)} MB/s, ${ratio(memoryMbps, readMbps)} of the read`
	);
	console.log(`  hash/read ratio ${ratio(hashMbps, readMbps)} (target >= 0.9): ${verdict(hashMbps / readMbps >= 0.9)}`);
	const readExtra = Math.max(...reads.map((o) => o.extraRss));
	const hashExtra = Math.max(...hashes.map((o) => o.extraRss));
	console.log(`  idle renderer RSS before each run: ${[...reads, ...hashes].map((o) => mib(o.idleRss)).join(', ')}`);
	console.log(
		`  peak extra renderer RSS over idle: hashing ${mib(hashExtra)} (target < 64 MiB): ${verdict(hashExtra < 64 * 1024 * 1024)}; plain read ${mib(readExtra)}, ratio ${ratio(hashExtra, readExtra)}`
	);
	console.log(`  digest ${hashes[0]?.digest} ${wrong.length === 0 ? 'equals' : 'DIFFERS FROM'} b3sum ${expected}`);
	report({
		name: 'blake3OfBlob of a 1 GiB File in a worker (baseline: a plain read)',
		figure: hashMbps,
		unit: 'MB/s',
		baseline: readMbps,
		target: '>= 0.9x baseline',
		met: hashMbps / readMbps >= 0.9
	});
	report({
		name: 'peak extra renderer RSS while hashing (baseline: a plain read)',
		figure: hashExtra / 1024 / 1024,
		unit: 'MiB',
		baseline: readExtra / 1024 / 1024,
		target: '< 64 MiB',
		met: hashExtra < 64 * 1024 * 1024
	});
	check('the digest equals b3sum', wrong.length === 0, 'the hasher gave a wrong digest');
} finally {
	await browser.close();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
}
