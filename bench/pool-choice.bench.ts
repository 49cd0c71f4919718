/**
 * The cost of a pool's choice of member (#31), which runs once per run (a 400-cell sweep on a pool
 * makes 400 choices): read what the workflow needs, then check every member's node types and model
 * files and weigh their waits. Four members serve the emulator's full node set (384 types) with
 * different shelves; the workflow is the example text to image, and a 60-node workflow made of it.
 * Baseline: `JSON.stringify` of the same workflow, which every submit does anyway. Target: < 1 ms
 * per choice (p95 over 200 choices).
 * Also printed: reading one member's definitions into the compact form the choice reads, done once
 * per member (and again only when its definitions change).
 */
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import { nodeDefinitions } from '../emulator/workflow/nodes';
import { shapeDefinitions } from '../emulator/workflow/server-shape';
import { parseObjectInfo, type NodeDefinitions } from '../src/lib/workflows/protocol/object-info';
import type { ApiPrompt } from '../src/lib/core/protocol/workflow-run';
import { chooseMember, type MemberState } from '../src/lib/pools/rules/choose-member';
import { memberDefinitions, workNeeds } from '../src/lib/pools/rules/work-needs';
import { check, report } from './support/report';
import { percentile } from './support/stats';

const CHOICES = 200;

function definitionsOf(lacksModels: string[]): NodeDefinitions {
	const parsed = parseObjectInfo(JSON.parse(JSON.stringify(shapeDefinitions(nodeDefinitions([]), { lacksModels }))));
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.nodes;
}

const servers = [[], ['v1-5-pruned-emaonly.safetensors'], [], ['sd_xl_base_1.0.safetensors']].map(definitionsOf);

const compactTimes: number[] = [];
const compact = servers.map((nodes) => {
	const t = performance.now();
	const c = memberDefinitions(nodes);
	compactTimes.push(performance.now() - t);
	return c;
});

/** Ten copies of the example side by side: 60 nodes, ten checkpoint loaders. */
function wide(copies: number): ApiPrompt {
	const out: ApiPrompt = {};
	for (let i = 0; i < copies; i++)
		for (const [id, node] of Object.entries(textToImage as ApiPrompt)) {
			const inputs: Record<string, unknown> = {};
			for (const [k, v] of Object.entries(node.inputs)) inputs[k] = Array.isArray(v) ? [`${i}-${v[0]}`, v[1]] : v;
			out[`${i}-${id}`] = { ...node, inputs: inputs as ApiPrompt[string]['inputs'] };
		}
	return out;
}

function members(round: number): MemberState[] {
	return compact.map((definitions, i) => ({
		member: { profileId: `m${i}`, weight: 1 + (i % 2), enabled: true, paid: i === 3, pricePerRunCents: i === 3 ? 3 : null },
		name: `Server ${i}`,
		definitions,
		queueLength: (round + i) % 5,
		concurrency: 1,
		recentDurationsMs: [2000 * (i + 1), 2100 * (i + 1), 1900 * (i + 1), 2050 * (i + 1)]
	}));
}

for (const [label, prompt] of [
	['text to image (6 nodes)', textToImage as ApiPrompt],
	['60 nodes, 10 checkpoints', wide(10)]
] as const) {
	const baselineTimes: number[] = [];
	const times: number[] = [];
	const chosen = new Set<string>();
	for (let r = 0; r < CHOICES; r++) {
		const each = members(r);
		let t = performance.now();
		JSON.stringify(prompt);
		baselineTimes.push(performance.now() - t);
		t = performance.now();
		const choice = chooseMember({
			work: workNeeds(prompt),
			members: each,
			cloudThresholdMs: 30_000,
			spendCapCents: 500,
			spentCents: 0,
			pin: null,
			unknownDurationMs: 30_000
		});
		times.push(performance.now() - t);
		if (choice.ok) chosen.add(choice.profileId);
		if (r === 0)
			check(
				`${label}: the member lacking its checkpoint is skipped`,
				!choice.ok || choice.skipped.some((s) => s.profileId === 'm1' && s.reason === 'missing-model')
			);
	}
	check(
		`${label}: every choice found a member, and more than one member was chosen`,
		chosen.size > 1 && !chosen.has('m1'),
		[...chosen].join(',')
	);
	console.log(`first choice (the closest-file names not yet known): ${times[0]!.toFixed(3)} ms`);
	report({ name: `pool: first choice of member, ${label}`, figure: times[0]!, unit: 'ms' });
	const p95 = percentile(times, 95);
	const baseline = percentile(baselineTimes, 95);
	console.log(
		`choice of member, ${label}: p95 ${p95.toFixed(4)} ms, median ${percentile(times, 50).toFixed(4)} ms (baseline JSON.stringify p95 ${baseline.toFixed(4)} ms)`
	);
	report({
		name: `pool: choice of member, ${label}, p95 of ${CHOICES}`,
		figure: p95,
		unit: 'ms',
		baseline,
		target: '< 1 ms',
		met: p95 < 1
	});
}
const compactMs = Math.max(...compactTimes);
console.log(`a member's definitions read for the choice (once per member): ${compactMs.toFixed(2)} ms at most`);
report({ name: "pool: a member's definitions read for the choice (once per member), slowest of 4", figure: compactMs, unit: 'ms' });
