/** Files built to hurt: odd names, endless subgraphs, long chains, loops. Each ends in a message. */
import { describe, expect, it } from 'vitest';
import { parseObjectInfo } from '../../protocol/object-info';
import type { Json, JsonObject } from '../../../core/protocol/json';
import { convertUiWorkflow } from './convert';
import { fixtureDefinitions } from './object-info.fixture';
import { MAX_EXPANDED_NODES } from './subgraphs';
import { subgraphDefinition, uiNode, workflow04, type LinkSpec } from './ui-builder.fixture';

const definitions = fixtureDefinitions();

function errorsOf(workflow: Json, defs = definitions): string[] {
	const result = convertUiWorkflow(workflow, defs);
	return result.ok ? [] : result.errors.map((e) => `${e.kind}: ${e.message}`);
}

describe('hostile workflows', () => {
	it('node types and inputs named like Object.prototype members work', () => {
		const info = JSON.parse(
			'{"__proto__": {"input": {"required": {"toString": ["INT", {"default": 3}], "constructor": ["STRING", {}]}}, "output": ["INT"], "output_node": true},' +
				' "constructor": {"input": {"required": {"hasOwnProperty": ["INT", {}]}}, "output": [], "output_node": true}}'
		) as Json;
		const parsed = parseObjectInfo(info);
		if (!parsed.ok) throw new Error(parsed.message);
		const workflow = workflow04(
			[
				uiNode(1, '__proto__', { outputs: [['INT', 'INT', [1]]], values: [5, 'hi'] }),
				uiNode(2, 'constructor', { inputs: [['hasOwnProperty', 'INT', 1, 'hasOwnProperty']], values: [0] }),
				uiNode(3, 'toString', { properties: { cnr_id: 'valueOf' } })
			],
			[[1, 1, 0, 2, 0, 'INT']]
		);
		const result = convertUiWorkflow(workflow, parsed.nodes);
		expect(result.ok).toBe(false);
		expect(result.missing.nodeTypes).toEqual([{ type: 'toString', pack: 'valueOf', nodes: [{ id: '3', title: 'toString' }] }]);

		const without = convertUiWorkflow({ ...workflow, nodes: (workflow['nodes'] as JsonObject[]).slice(0, 2) }, parsed.nodes);
		if (!without.ok) throw new Error(JSON.stringify(without.errors));
		expect(JSON.parse(JSON.stringify(without.prompt))).toEqual({
			'1': { class_type: '__proto__', inputs: { toString: 5, constructor: 'hi' }, _meta: { title: '__proto__' } },
			'2': { class_type: 'constructor', inputs: { hasOwnProperty: ['1', 0] }, _meta: { title: 'constructor' } }
		});
	});

	it('a subgraph that contains itself', () => {
		const loop = subgraphDefinition({ id: 'loop', name: 'Loop', inputs: [], outputs: [], nodes: [uiNode(1, 'loop')], links: [] });
		expect(errorsOf(workflow04([uiNode(1, 'loop')], [], { definitions: { subgraphs: [loop] } }))).toEqual([
			'subgraph-cycle: Subgraph "Loop" contains itself (at node 1:1).'
		]);
	});

	it('subgraphs nested deeper than the limit', () => {
		const subgraphs = Array.from({ length: 40 }, (_, i) =>
			subgraphDefinition({ id: `s${i}`, name: `S${i}`, inputs: [], outputs: [], nodes: i < 39 ? [uiNode(1, `s${i + 1}`)] : [], links: [] })
		);
		const [error] = errorsOf(workflow04([uiNode(1, 's0')], [], { definitions: { subgraphs } }));
		expect(error).toMatch(/^too-deep: Subgraphs nest more than 32 levels deep/);
	});

	it('a subgraph used many times in a subgraph used many times stops at the node cap, quickly', () => {
		const fan = (id: string, child: string) =>
			subgraphDefinition({
				id,
				name: id,
				inputs: [],
				outputs: [],
				nodes: Array.from({ length: 30 }, (_, i) => uiNode(i + 1, child)),
				links: []
			});
		const subgraphs = [fan('a', 'b'), fan('b', 'c'), fan('c', 'd'), fan('d', 'SaveImage')];
		const errors = errorsOf(workflow04([uiNode(1, 'a'), uiNode(2, 'a')], [], { definitions: { subgraphs } }));
		expect(errors).toEqual([
			`too-large: The workflow expands to more than ${MAX_EXPANDED_NODES} nodes once its subgraphs are unfolded; Runboard stops there.`
		]);
		// 1.6 million nodes unfolded in full would outlast the test's timeout; the cap stops it long before.
	});

	it('a chain of 40,000 reroutes resolves without a stack overflow', () => {
		const count = 40_000;
		const nodes: JsonObject[] = [
			uiNode(1, 'LoadImage', {
				outputs: [
					['IMAGE', 'IMAGE', [1]],
					['MASK', 'MASK', []]
				],
				values: ['example.png', 'image']
			})
		];
		const links: LinkSpec[] = [];
		for (let i = 0; i < count; i++) {
			const id = 100 + i;
			nodes.push(uiNode(id, 'Reroute', { inputs: [['', '*', i + 1]], outputs: [['', 'IMAGE', [i + 2]]] }));
			links.push([i + 1, i === 0 ? 1 : id - 1, 0, id, 0, 'IMAGE']);
		}
		nodes.push(uiNode(2, 'SaveImage', { inputs: [['images', 'IMAGE', count + 1]], values: ['x'] }));
		links.push([count + 1, 100 + count - 1, 0, 2, 0, 'IMAGE']);
		const result = convertUiWorkflow(workflow04(nodes, links), definitions);
		if (!result.ok) throw new Error(JSON.stringify(result.errors));
		expect(result.prompt['2']!.inputs['images']).toEqual(['1', 0]);
	});

	it('reroutes that feed each other', () => {
		const workflow = workflow04(
			[
				uiNode(1, 'Reroute', { inputs: [['', '*', 2]], outputs: [['', 'IMAGE', [1, 3]]] }),
				uiNode(2, 'Reroute', { inputs: [['', '*', 1]], outputs: [['', 'IMAGE', [2]]] }),
				uiNode(3, 'SaveImage', { inputs: [['images', 'IMAGE', 3]], values: ['x'] })
			],
			[
				[1, 1, 0, 2, 0, 'IMAGE'],
				[2, 2, 0, 1, 0, 'IMAGE'],
				[3, 1, 0, 3, 0, 'IMAGE']
			]
		);
		expect(errorsOf(workflow)).toEqual(['link-cycle: Links loop back on themselves at node 2 ("Reroute").']);
	});

	it.each([
		['not an object', [1, 2, 3], 'invalid-workflow: A workflow must be a JSON object.'],
		['nodes that are not a list', { nodes: 5 }, 'invalid-workflow: The workflow: "nodes" is not a list.'],
		['a node without a type', { nodes: [{ id: 1 }] }, 'invalid-workflow: The workflow: node 1 has no type.'],
		['a link of the wrong shape', { nodes: [], links: ['x'] }, 'invalid-workflow: The workflow: a link is neither an array nor an object.'],
		[
			'two nodes with one id',
			{
				nodes: [
					{ id: 1, type: 'Note' },
					{ id: 1, type: 'Note' }
				]
			},
			'invalid-workflow: Two nodes share the id 1.'
		]
	])('%s', (_, workflow, expected) => {
		expect(errorsOf(workflow as Json)).toEqual([expected]);
	});
});
