/**
 * A 200-node graph of core nodes on the emulator: ten sampler blocks (prompt, KSampler with step
 * progress and previews, decode, a chain of pixel work, encode back) with an image saved at the end.
 * Figure: the time from a sampler step's end to its preview frame being written, p95, against the
 * same figure for the 7-node text-to-image example measured in the same run (target: within 1.2x),
 * so a large graph costs no more per preview than a small one.
 */
import { cpus, loadavg } from 'node:os';
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../src/lib/workflows/protocol/workflow-api';
import { RecordingSocket, api, control, startEmulator } from '../emulator/workflow/test-support';
import { check, report } from './support/report';
import { BLOCKS, PIXEL_CHAIN, STEPS_PER_BLOCK, largeGraph } from './support/large-graph';

const SMALL_RUNS = 5;
const SMALL_STEPS = 20;

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const emu = await startEmulator();

/** Runs `prompt` once on a socket asking for type-4 frames; returns the step-to-frame times, frames and how it ended. */
async function measure(prompt: ApiPrompt): Promise<{ times: number[]; frames: number; ended: string; progress: number }> {
	const times: number[] = [];
	const socket = await RecordingSocket.open(emu, { clientId: 'bench-large', previewMetadata: true });
	emu.workflow.hub.previewTimer = (t) => times.push(t.sinceStepEndMs);
	const { status, body } = await api(emu).submit(prompt, { client_id: 'bench-large' });
	if (status !== 200) throw new Error(`submit refused: ${JSON.stringify(body)}`);
	const events = await socket.untilDone(body['prompt_id'] as string);
	emu.workflow.hub.previewTimer = undefined;
	const frames = socket.binary().length;
	socket.close();
	const ended = events.find((m) => m.type === 'execution_success' || m.type === 'execution_error')?.type ?? 'no end';
	return { times, frames, ended, progress: events.filter((m) => m.type === 'progress').length };
}

try {
	await control(emu, '/workflow/timing', { stepMs: 25 });
	console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} (other processes lengthen the tail)`);
	const large = largeGraph(1);
	const nodes = Object.keys(large).length;
	const small = JSON.parse(JSON.stringify(textToImage)) as ApiPrompt;
	small['3']!.inputs['steps'] = SMALL_STEPS;

	// Warm-up of both, then the small one's samples and the large one's, alternating so load hits both alike.
	await measure(small);
	await measure(largeGraph(0));
	const smallTimes: number[] = [];
	const largeTimes: number[] = [];
	let largeRun = { frames: 0, ended: '', progress: 0 };
	for (let run = 0; run < SMALL_RUNS; run++) {
		small['3']!.inputs['seed'] = 1000 + run;
		smallTimes.push(...(await measure(small)).times);
		if (run % 2 === 0) {
			const m = await measure(largeGraph(100 + run));
			largeTimes.push(...m.times);
			largeRun = m;
		}
	}
	const ratio = percentile(largeTimes, 95) / percentile(smallTimes, 95);
	console.log(
		`a ${nodes}-node graph (${BLOCKS} samplers of ${STEPS_PER_BLOCK} steps, ${BLOCKS * PIXEL_CHAIN} pixel nodes): ${largeTimes.length} samples`
	);
	console.log(
		`  step end -> preview frame written: p50 ${fmt(percentile(largeTimes, 50))}  p95 ${fmt(percentile(largeTimes, 95))}  max ${fmt(Math.max(...largeTimes))}`
	);
	console.log(
		`  the 7-node example, same run:      p50 ${fmt(percentile(smallTimes, 50))}  p95 ${fmt(percentile(smallTimes, 95))}  ratio p95 ${ratio.toFixed(2)}x (target <= 1.2x)`
	);
	report({
		name: `${nodes}-node graph: step end to preview frame written, p95 (baseline: the 7-node example)`,
		figure: percentile(largeTimes, 95),
		unit: 'ms',
		baseline: percentile(smallTimes, 95),
		target: '<= 1.2x baseline',
		met: ratio <= 1.2
	});
	check(`the graph has 200 nodes`, nodes === 200, String(nodes));
	check(`the large graph ran to success`, largeRun.ended === 'execution_success', largeRun.ended);
	check(
		`every step of every sampler sent progress and a preview`,
		largeRun.frames === BLOCKS * STEPS_PER_BLOCK && largeRun.progress >= BLOCKS * STEPS_PER_BLOCK,
		`${largeRun.frames} frames, ${largeRun.progress} progress events`
	);
} finally {
	await emu.close();
}
