/**
 * The sizes behind the share link's fragment limit (docs/decisions/0062): each example and own
 * workflow's link in API form, the editor workflows we have, and editor workflows laid out as
 * ComfyUI saves them (position, size, order, properties per node) from the own API workflows.
 * Run: npx tsx scripts/share-link-sizes.ts
 */
import { readFileSync } from 'node:fs';
import { makeShareLink } from '../src/lib/workflows/rules/bundle/share-link';
import { EXAMPLE_WORKFLOWS } from '../src/lib/workflows/rules/examples/index';
import { CORE_GRAPHS } from '../emulator/workflow/core-graphs.fixture';
import { SUBGRAPH_WORKFLOW } from '../emulator/workflow/subgraph-workflow.fixture';
import type { ApiPrompt } from '../src/lib/workflows/protocol/workflow-api';
import type { Json, JsonObject } from '../src/lib/core/protocol/json';

const ORIGIN = 'https://runboard.example';
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** An editor workflow shaped like ComfyUI's own saves, built from an API workflow (values, links, layout). */
function editorLike(prompt: ApiPrompt): JsonObject {
	const ids = Object.keys(prompt);
	const links: unknown[] = [];
	let linkId = 1;
	const nodes = ids.map((id, order) => {
		const node = prompt[id]!;
		const inputs: unknown[] = [];
		const values: unknown[] = [];
		for (const [name, value] of Object.entries(node.inputs)) {
			if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string') {
				inputs.push({ name, type: name.toUpperCase(), link: linkId });
				links.push([linkId++, Number(value[0]), value[1], Number(id), inputs.length - 1, name.toUpperCase()]);
			} else {
				inputs.push({ localized_name: name, name, type: typeof value === 'number' ? 'INT' : 'STRING', widget: { name }, link: null });
				values.push(value);
			}
		}
		return {
			id: Number(id),
			type: node.class_type,
			pos: [120 + order * 340.5, 80 + (order % 3) * 260.25],
			size: [315, 262],
			flags: {},
			order,
			mode: 0,
			inputs,
			outputs: [{ localized_name: 'OUTPUT', name: 'OUTPUT', type: 'OUTPUT', slot_index: 0, links: [] }],
			properties: { cnr_id: 'comfy-core', ver: '0.3.66', 'Node name for S&R': node.class_type },
			widgets_values: values
		};
	});
	return {
		id: '5f1b7a64-8b3c-4c6e-9a1e-2f9d6c0b7e11',
		revision: 0,
		last_node_id: Math.max(...ids.map(Number)),
		last_link_id: linkId - 1,
		nodes: nodes as Json,
		links: links as Json,
		groups: [],
		config: {},
		extra: { ds: { scale: 0.8264462809917354, offset: [412.5, 96.25] }, frontendVersion: '1.28.7' },
		version: 0.4
	};
}

const rows: Array<[string, number, number | string]> = [];
for (const { title: name, prompt } of EXAMPLE_WORKFLOWS)
	rows.push([`example ${name}`, JSON.stringify(prompt).length, linkChars(prompt, null)]);
for (const graph of CORE_GRAPHS) {
	rows.push([`own ${graph.name} (API)`, JSON.stringify(graph.prompt).length, linkChars(graph.prompt, null)]);
	const ui = editorLike(graph.prompt);
	rows.push([`own ${graph.name} (editor)`, JSON.stringify(ui).length, linkChars(graph.prompt, ui)]);
}
rows.push([
	'own subgraph workflow (editor)',
	JSON.stringify(SUBGRAPH_WORKFLOW).length,
	linkChars({ '1': { class_type: 'X', inputs: {} } }, SUBGRAPH_WORKFLOW)
]);
const fixture = JSON.parse(readFileSync('tests/fixtures/workflow-files/ui-workflow.json', 'utf8')) as JsonObject;
rows.push([
	'fixture ui-workflow.json (editor)',
	JSON.stringify(fixture).length,
	linkChars({ '1': { class_type: 'X', inputs: {} } }, fixture)
]);
// Many graphs chained into one: the size of a large workflow (about 60 nodes).
const large: ApiPrompt = {};
CORE_GRAPHS.forEach((g, i) => {
	for (const [id, node] of Object.entries(g.prompt)) large[String(i * 100 + Number(id))] = node;
});
rows.push([`all own graphs as one (${Object.keys(large).length} nodes, API)`, JSON.stringify(large).length, linkChars(large, null)]);
rows.push([`all own graphs as one (editor)`, JSON.stringify(editorLike(large)).length, linkChars(large, editorLike(large))]);

function linkChars(prompt: ApiPrompt, ui: JsonObject | null): number {
	const made = makeShareLink(ORIGIN, { name: 'workflow', prompt, ui }, NO_LIMIT);
	return made.ok ? made.chars : -1;
}

console.log('| workflow | JSON chars | fragment chars |\n| --- | ---: | ---: |');
for (const [name, json, chars] of rows) console.log(`| ${name} | ${json} | ${chars} |`);
