/**
 * A run bundle's peak memory (#32, decision 0062): a run with three 64 MiB outputs, bundled as the
 * worker does, each way in a fresh process so each peak is its own. Baseline: the zip built whole in
 * memory, as bundles were made before (each output read into an array, `zipSync`, then copied into
 * the Blob handed to the page). Measured: the streamed writer (`writeBundle`: each output read in
 * slices into fflate's `Zip`, its pieces folded into one Blob). The figure is the process's peak
 * resident memory above what it held just before (the outputs themselves, as Blobs), in MiB.
 * Target: at most half the baseline's.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { zipSync, type Zippable } from 'fflate';
import { createBLAKE3 } from 'hash-wasm';
import { writeBundle, type StreamingHash } from '../src/lib/workflows/rules/bundle/bundle-write';
import { bundleSource } from '../src/lib/workflows/rules/bundle/bundle.fixture';
import { check, report } from './support/report';

const OUTPUTS = 3;
const OUTPUT_MIB = 64;
const MIB = 1024 * 1024;

/** One output of `mib` MiB, made a MiB at a time so making it never holds it twice. */
function output(mib: number, seed: number): Blob {
	const parts: Blob[] = [];
	for (let i = 0; i < mib; i++) parts.push(new Blob([Uint8Array.from({ length: MIB }, (_, j) => (j * 31 + i * 7 + seed) & 0xff)]));
	return new Blob(parts, { type: 'image/png' });
}

async function newHash(): Promise<StreamingHash> {
	const hasher = await createBLAKE3();
	hasher.init();
	return { update: (bytes) => void hasher.update(bytes), digestHex: () => hasher.digest('hex') };
}

/** In a child: makes the outputs, then the bundle one way; prints the peak above the outputs, in MiB. */
async function child(way: 'whole' | 'streamed'): Promise<void> {
	const outputs = Array.from({ length: OUTPUTS }, (_, i) => ({
		nodeId: '9',
		kind: 'image' as const,
		name: `out_${i}.png`,
		type: 'image/png',
		blob: output(OUTPUT_MIB, i)
	}));
	await new Promise((r) => setTimeout(r, 50));
	const before = process.memoryUsage().rss;
	const peakBefore = process.resourceUsage().maxRSS * 1024;
	let size: number;
	if (way === 'whole') {
		const zip: Zippable = {};
		for (const o of outputs) zip[`outputs/${o.name}`] = [new Uint8Array(await o.blob.arrayBuffer()), { level: 0 }];
		size = new Blob([zipSync(zip) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }).size;
	} else {
		const { blob } = await writeBundle(bundleSource({ inputs: [], outputs }), newHash);
		size = blob.size;
	}
	const peak = process.resourceUsage().maxRSS * 1024;
	console.log(JSON.stringify({ way, aboveMiB: (peak - Math.max(before, peakBefore)) / MIB, sizeMiB: size / MIB }));
}

function measure(way: 'whole' | 'streamed'): Promise<{ aboveMiB: number; sizeMiB: number }> {
	return new Promise((resolve, reject) => {
		const run = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), way], { stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		run.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
		run.on('close', (code) => {
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0 || !line.startsWith('{')) reject(new Error(`the ${way} child ended ${code}: ${out}`));
			else resolve(JSON.parse(line) as { aboveMiB: number; sizeMiB: number });
		});
	});
}

const way = process.argv[2];
if (way === 'whole' || way === 'streamed') await child(way);
else {
	const whole = await measure('whole');
	const streamed = await measure('streamed');
	check(
		'both ways make a bundle of the outputs’ size',
		Math.abs(whole.sizeMiB - streamed.sizeMiB) < 1 && whole.sizeMiB >= OUTPUTS * OUTPUT_MIB
	);
	console.log(
		`${OUTPUTS} outputs of ${OUTPUT_MIB} MiB: peak above the outputs ${whole.aboveMiB.toFixed(0)} MiB built whole, ${streamed.aboveMiB.toFixed(0)} MiB streamed (bundle ${streamed.sizeMiB.toFixed(1)} MiB)`
	);
	report({
		name: `bundle: peak memory making a bundle of ${OUTPUTS} x ${OUTPUT_MIB} MiB outputs`,
		figure: Math.round(streamed.aboveMiB),
		unit: 'MiB',
		baseline: Math.round(whole.aboveMiB),
		target: '<= half the whole zip',
		met: streamed.aboveMiB <= whole.aboveMiB / 2
	});
}
