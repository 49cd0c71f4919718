/**
 * A pool's makespan (#31): 200 runs of fixed durations (2 to 8 s of emulated work each, by a seeded
 * draw) over 4 emulated ComfyUI servers of different speeds (1x, 1.5x, 2x, 3x), sent through the
 * pool's own worker code (`PoolService`: its choice, its queue reads, its capacity) as a sweep sends
 * them: as many in flight as the pool says it takes. The servers run on a scaled clock (10x), so
 * the ~2 min of emulated work take ~15 s. Target: the last run ends within 1.15x of the ideal
 * makespan, the larger of total work over total speed and the longest run on the fastest server,
 * both from the runs' own measured times in this run (so the servers' overheads count on both sides).
 */
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import { createEmulatorPool } from '../emulator/pool';
import { ok, fail, appError } from '../src/lib/core/protocol/errors';
import type { ApiPrompt, WorkflowRun } from '../src/lib/core/protocol/workflow-run';
import { MemoryStore } from '../src/lib/core/worker/kv-store';
import { parseObjectInfo, type NodeDefinitions } from '../src/lib/workflows/protocol/object-info';
import type { QueueView } from '../src/lib/workflows';
import type { Json } from '../src/lib/core/protocol/json';
import { PoolService, type PoolRunPort } from '../src/lib/pools/worker/pool-service';
import { poolContext } from '../src/lib/pools/worker/testing/pool-context';
import { check, report } from './support/report';
import { prng } from '../emulator/prng';

const RUNS = 200;
const SPEEDS = [1, 1.5, 2, 3];
/** Emulated time per wall time. */
const SCALE = 10;
/** One sampler step is one second of emulated work on a 1x server. */
const STEP_MS = 1000;

const servers = await createEmulatorPool(
	SPEEDS.map((speed, i) => ({ name: `S${i}`, scenario: 'comfyui-local', shape: { stepMs: STEP_MS / speed, timeScale: SCALE } }))
);
const ids = SPEEDS.map((_, i) => `s${i}`);
const urlOf = (profileId: string) => servers.servers[ids.indexOf(profileId)]!.emulator.urls.workflow;

const draw = prng(31);
const durations = Array.from({ length: RUNS }, () => 2 + Math.floor(draw() * 7)); // 2..8 s

function promptFor(i: number): ApiPrompt {
	const prompt = structuredClone(textToImage) as ApiPrompt;
	prompt['3']!.inputs['steps'] = durations[i]!;
	prompt['3']!.inputs['seed'] = i + 1; // no two alike: none is served from the output cache
	prompt['5']!.inputs['width'] = 64;
	prompt['5']!.inputs['height'] = 64;
	return prompt;
}

// The worker's context, as the unit tests make it: storage in memory, this process the leader.
const { ctx } = poolContext(new MemoryStore(), ids);

const nodes = new Map<string, NodeDefinitions>();
async function json(url: string, init?: RequestInit): Promise<unknown> {
	const res = await fetch(url, init);
	if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
	return res.json();
}

// The port speaks ComfyUI's own routes, as the app's local surface does.
const port: PoolRunPort = {
	submit: async (input) => {
		const promptId = input.promptId ?? crypto.randomUUID();
		await json(`${urlOf(input.profileId)}/prompt`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt: input.prompt, prompt_id: promptId, client_id: 'bench' })
		});
		return ok({ id: input.runId ?? promptId, promptId, profileId: input.profileId } as WorkflowRun);
	},
	nodes: async (profileId) => {
		let known = nodes.get(profileId);
		if (!known) {
			const parsed = parseObjectInfo((await json(`${urlOf(profileId)}/object_info`)) as Json);
			if (!parsed.ok) return fail(appError('bad-response', parsed.message));
			nodes.set(profileId, (known = parsed.nodes));
		}
		return ok(known);
	},
	wake: async () => {},
	queue: async (profileId) => {
		const q = (await json(`${urlOf(profileId)}/queue`)) as { queue_running: unknown[][]; queue_pending: unknown[][] };
		const entry = (item: unknown[], position: number) => ({ promptId: String(item[1]), position, runId: null, title: '' });
		return ok<QueueView>({ running: q.queue_running.map(entry), pending: q.queue_pending.map(entry) });
	},
	inputFile: async () => fail(appError('not-found', 'no input files in this bench')),
	sendInput: async () => fail(appError('not-found', 'no input files in this bench')),
	openRuns: async () => [],
	getRun: async () => null,
	handOver: async () => fail(appError('invalid-input', 'nothing moves in this bench'))
};

const service = new PoolService(ctx, port);
const api = service.api();
const saved = await api.savePool({
	pool: {
		name: 'Bench',
		members: ids.map((profileId) => ({ profileId, weight: 1, enabled: true, paid: false, pricePerRunCents: null })),
		cloudThresholdMs: 60_000,
		spendCapCents: null
	}
});
if (!saved.ok) throw new Error('pool not saved');
const poolId = saved.value.id;

// Each job's start and end on its server, from the engines themselves (wall ms).
const started = new Map<string, number>();
const ended: Array<{ profileId: string; promptId: string; wallMs: number; end: number }> = [];
const byPrompt = new Map<string, string>();
let whenAllDone: () => void = () => {};
const allDone = new Promise<void>((resolve) => (whenAllDone = resolve));
let inFlight = 0;
let next = 0;
let placeTimes: number[] = [];

servers.servers.forEach(({ emulator }, i) => {
	emulator.workflow.engine.observers.add({
		event: (type, data) => {
			const promptId = String(data['prompt_id']);
			if (type === 'execution_start') started.set(promptId, performance.now());
			if (type !== 'execution_success') return;
			const end = performance.now();
			const begin = started.get(promptId) ?? end;
			ended.push({ profileId: ids[i]!, promptId, wallMs: end - begin, end });
			// The pool learns the member's durations from the runs it sees end, as in the app.
			ctx.emit({
				type: 'run',
				run: { id: promptId, profileId: ids[i]!, workflowId: 'w', status: 'succeeded', startedAt: begin, finishedAt: end } as WorkflowRun
			});
			inFlight--;
			if (ended.length === RUNS) whenAllDone();
			else void dispatch();
		},
		preview: () => {},
		text: () => {}
	});
});

/** As a sweep does: sends while fewer runs are in flight than the pool takes at once. */
async function dispatch(): Promise<void> {
	while (next < RUNS && inFlight < (await service.capacity(poolId))) {
		const i = next++;
		inFlight++;
		const t = performance.now();
		const sent = await api.submitPoolRun({
			workflowId: 'w',
			title: `run ${i}`,
			prompt: promptFor(i),
			seeds: {},
			poolId,
			pin: null,
			sourceProfileId: null
		});
		placeTimes.push(performance.now() - t);
		if (!sent.ok) throw new Error(`run ${i} not sent: ${JSON.stringify(sent.error)}`);
		byPrompt.set(sent.value.promptId!, sent.value.profileId);
	}
}

const watchdog = setTimeout(() => {
	console.log(`FAIL: not done after 180 s (${ended.length} of ${RUNS} ended)`);
	process.exit(1);
}, 180_000);
const t0 = performance.now();
await dispatch();
await allDone;
clearTimeout(watchdog);
const makespan = ((Math.max(...ended.map((e) => e.end)) - t0) * SCALE) / 1000;

// Work in seconds of a 1x server: a job's measured time there times the server's speed.
const speedOf = (profileId: string) => SPEEDS[ids.indexOf(profileId)]!;
const work = ended.map((e) => ((e.wallMs * SCALE) / 1000) * speedOf(e.profileId));
const totalWork = work.reduce((a, b) => a + b, 0);
const capacity = SPEEDS.reduce((a, b) => a + b, 0);
const longest = Math.max(...work) / Math.max(...SPEEDS);
const ideal = Math.max(totalWork / capacity, longest);
const ratio = makespan / ideal;
const perServer = ids.map((id) => ended.filter((e) => e.profileId === id).length);

check('every run ended once, on the server it was sent to', ended.length === RUNS && new Set(ended.map((e) => e.promptId)).size === RUNS);
check(
	'every run ended where the pool sent it',
	ended.every((e) => byPrompt.get(e.promptId) === e.profileId)
);
console.log(
	`${RUNS} runs, ${durations.reduce((a, b) => a + b, 0)} s of nominal work, speeds ${SPEEDS.join('/')}x: runs per server ${perServer.join('/')}`
);
console.log(
	`makespan ${makespan.toFixed(1)} s emulated (${((makespan / SCALE) * 1000).toFixed(0)} ms wall); ideal ${ideal.toFixed(1)} s (work ${totalWork.toFixed(0)} s / ${capacity} = ${(totalWork / capacity).toFixed(1)} s, longest ${longest.toFixed(1)} s): ${ratio.toFixed(3)}x`
);
placeTimes = placeTimes.sort((a, b) => a - b);
console.log(`placing a run (4 queue reads over HTTP, the choice, the submit): median ${placeTimes[placeTimes.length >> 1]!.toFixed(1)} ms`);
report({ name: 'pool: makespan of 200 runs over 4 servers, to the ideal', figure: ratio, unit: 'x', target: '< 1.15x', met: ratio < 1.15 });
report({ name: 'pool: makespan of 200 runs over 4 servers (emulated)', figure: makespan, unit: 's', baseline: ideal });
await servers.close();
