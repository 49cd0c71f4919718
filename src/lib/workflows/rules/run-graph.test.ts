import { describe, expect, it } from 'vitest';
import { boxOf, buildRunGraph, levelPath, memberIndex, opensInto, overlaps, typeLinks, visibleNodeOf } from './run-graph';
import { DAGRE_LIMIT, layeredLayout, layoutGraph } from './run-graph-layout';
import { nodeViews } from './run-graph-states';
import { newWorkflowRun, type WorkflowRun } from './run-record';
import { applyServerEvent } from './run-reducer';
import textToImage from './examples/text-to-image.json';
import type { ApiPrompt } from '../protocol/workflow-api';
import type { ServerEvent } from '../protocol/workflow-events';
import type { JsonObject } from '../../core/protocol/json';

const t2i = textToImage as ApiPrompt;

const withSubgraph: ApiPrompt = {
	'1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'a.safetensors' } },
	'5:2': { class_type: 'CLIPTextEncode', inputs: { clip: ['1', 1], text: 'x' } },
	'5:3': { class_type: 'KSampler', inputs: { model: ['1', 0], positive: ['5:2', 0] } },
	'9': { class_type: 'SaveImage', inputs: { images: ['5:3', 0] } }
};

const ui: JsonObject = {
	nodes: [
		{ id: 1, type: 'CheckpointLoaderSimple', pos: [10, 20], size: [300, 98] },
		{ id: 5, type: 'sg-1', pos: [400, 20], size: [250, 120], flags: { collapsed: true } },
		{ id: 9, type: 'SaveImage', pos: [800, 20], size: [210, 270], title: 'Keep it' }
	],
	links: [{ id: 11, origin_id: 1, origin_slot: 0, target_id: 5, target_slot: 0, type: 'MODEL', parentId: 2 }, [12, 5, 0, 9, 0, 'IMAGE']],
	reroutes: [
		{ id: 1, pos: [350, 60] },
		{ id: 2, pos: [380, 70], parentId: 1 }
	],
	groups: [{ title: 'Load', color: '#3f789e', bounding: [0, -20, 330, 160] }],
	definitions: { subgraphs: [{ id: 'sg-1', name: 'Sample' }] }
};

describe('the picture of a workflow', () => {
	it('draws every prompt node of an API-format workflow, linked as the inputs say, laid out left to right', () => {
		const graph = layoutGraph(buildRunGraph(t2i));
		expect(graph.layout).toBe('auto');
		expect(graph.nodes.map((n) => n.id).sort()).toEqual(Object.keys(t2i).sort());
		expect(graph.edges.map((e) => e.id)).toContain('4->3');
		expect(overlaps(graph.nodes)).toEqual([]);
		const x = (id: string) => graph.nodes.find((n) => n.id === id)!.x;
		for (const edge of graph.edges) expect(x(edge.from)).toBeLessThan(x(edge.to));
	});

	/** A chain of stages, each fed by the stage before and by one loader shared by all (long links). */
	const stages = (count: number): ApiPrompt => {
		const prompt: ApiPrompt = { '0': { class_type: 'Loader', inputs: {} } };
		for (let s = 1; s <= count; s++) {
			prompt[`${s}a`] = { class_type: 'Encode', inputs: { clip: ['0', 1] } };
			prompt[`${s}b`] = {
				class_type: 'Sample',
				inputs: { model: ['0', 0], positive: [`${s}a`, 0], ...(s > 1 ? { latent: [`${s - 1}b`, 0] } : {}) }
			};
			prompt[`${s}c`] = { class_type: 'Save', inputs: { images: [`${s}b`, 0] } };
		}
		return prompt;
	};

	it.each([
		['dagre', 20],
		["the layered layout, past dagre's limit", Math.ceil(DAGRE_LIMIT / 3) + 10]
	])('lays out left to right without overlaps: %s', (_name, count) => {
		const graph = layoutGraph(buildRunGraph(stages(count)));
		expect(graph.nodes).toHaveLength(3 * count + 1);
		expect(overlaps(graph.nodes)).toEqual([]);
		const x = new Map(graph.nodes.map((n) => [n.id, n.x]));
		for (const edge of graph.edges) expect(x.get(edge.from)!).toBeLessThan(x.get(edge.to)!);
	});

	it('keeps boxes level with their inputs in the layered layout', () => {
		const graph = layeredLayout(buildRunGraph({ a: { class_type: 'A', inputs: {} }, b: { class_type: 'B', inputs: { x: ['a', 0] } } }));
		expect(graph.nodes.map((n) => [n.id, n.y])).toEqual([
			['a', 0],
			['b', 0]
		]);
	});

	it('shows a subgraph as one box standing for its inside, and maps a path id to it', () => {
		const graph = buildRunGraph(withSubgraph);
		expect(Object.fromEntries(graph.nodes.map((n) => [n.id, n.members]))).toEqual({ '1': [], '5': ['5:2', '5:3'], '9': [] });
		expect(graph.edges.map((e) => e.id).sort()).toEqual(['1->5', '5->9']);
		expect(visibleNodeOf(graph, '5:3')).toBe('5');
		expect(visibleNodeOf(graph, '5:3:7')).toBe('5');
		expect(visibleNodeOf(graph, '9')).toBe('9');
	});

	it("keeps a UI-format file's layout, groups, collapsed nodes, link types and reroutes", () => {
		const graph = layoutGraph(buildRunGraph(withSubgraph, ui));
		expect(graph.layout).toBe('author');
		expect(graph.nodes.find((n) => n.id === '1')).toMatchObject({ x: 10, y: 20, width: 300, height: 98 });
		expect(graph.nodes.find((n) => n.id === '5')).toMatchObject({ collapsed: true, classType: 'Subgraph “Sample”', height: 30 });
		expect(graph.nodes.find((n) => n.id === '9')?.title).toBe('Keep it');
		expect(graph.groups).toEqual([{ title: 'Load', color: '#3f789e', x: 0, y: -20, width: 330, height: 160 }]);
		expect(graph.edges.find((e) => e.id === '1->5')).toMatchObject({
			type: 'MODEL',
			points: [
				{ x: 350, y: 60 },
				{ x: 380, y: 70 }
			]
		});
		expect(graph.edges.find((e) => e.id === '5->9')?.type).toBe('IMAGE');
	});

	it('draws legacy Reroute nodes as points on the link they sit on, not as boxes', () => {
		const legacy: JsonObject = {
			nodes: [
				{ id: 1, type: 'CheckpointLoaderSimple', pos: [0, 0], size: [300, 98] },
				{ id: 20, type: 'Reroute', pos: [400, 100], size: [75, 26] },
				{ id: 21, type: 'Reroute', pos: [500, 200], size: [75, 26] },
				{ id: 5, type: 'sg-1', pos: [700, 0], size: [250, 120] },
				{ id: 9, type: 'SaveImage', pos: [1000, 0], size: [210, 270] }
			],
			links: [
				[30, 1, 0, 20, 0, 'MODEL'],
				[31, 20, 0, 21, 0, 'MODEL'],
				[32, 21, 0, 5, 0, 'MODEL'],
				[33, 5, 0, 9, 0, 'IMAGE']
			]
		};
		const graph = buildRunGraph(withSubgraph, legacy);
		expect(graph.layout).toBe('author');
		expect(graph.nodes.map((n) => n.id).sort()).toEqual(['1', '5', '9']);
		expect(graph.edges.find((e) => e.id === '1->5')).toMatchObject({
			type: 'MODEL',
			points: [
				{ x: 437.5, y: 113 },
				{ x: 537.5, y: 213 }
			]
		});
		expect(graph.edges.find((e) => e.id === '5->9')).toMatchObject({ type: 'IMAGE', points: [] });
	});

	it("colours an API-format workflow's links by the output types the server's node definitions give", () => {
		const outputs: Record<string, string[]> = { CheckpointLoaderSimple: ['MODEL', 'CLIP', 'VAE'], CLIPTextEncode: ['CONDITIONING'] };
		const graph = typeLinks(buildRunGraph(t2i), t2i, (classType) => outputs[classType]);
		const typeOf = (from: string, to: string) => graph.edges.find((e) => e.id === `${from}->${to}`)?.type;
		// t2i: 4 is the checkpoint, 6 the positive prompt, 3 the sampler, 8 the decoder.
		expect(typeOf('4', '3')).toBe('MODEL');
		expect(typeOf('4', '6')).toBe('CLIP');
		expect(typeOf('6', '3')).toBe('CONDITIONING');
		expect(typeOf('3', '8')).toBe('*');
		// A file's own types are kept; nothing known, nothing changed.
		const typed = buildRunGraph(withSubgraph, ui);
		expect(typeLinks(typed, withSubgraph, () => ['VAE']).edges.find((e) => e.id === '1->5')?.type).toBe('MODEL');
		const untouched = buildRunGraph(t2i);
		expect(typeLinks(untouched, t2i, () => undefined)).toBe(untouched);
	});

	it('lays out afresh when the file does not place every node (another version of the workflow)', () => {
		const graph = buildRunGraph({ ...withSubgraph, '10': { class_type: 'PreviewImage', inputs: { images: ['9', 0] } } }, ui);
		expect(graph.layout).toBe('auto');
		expect(graph.groups).toEqual([]);
	});

	it.each([
		['garbage nodes and links', { nodes: [null, 3, { id: {} }], links: [[null], { origin_id: 1 }], groups: 'no' }],
		[
			'a legacy Reroute node cycle',
			{
				nodes: [
					{ id: 20, type: 'Reroute', pos: [0, 0] },
					{ id: 21, type: 'Reroute', pos: [0, 0] }
				],
				links: [
					[1, 20, 0, 21, 0, '*'],
					[2, 21, 0, 20, 0, '*'],
					[3, 21, 0, 9, 0, 'IMAGE']
				]
			}
		],
		[
			'a reroute cycle',
			{
				...ui,
				reroutes: [
					{ id: 1, parentId: 2 },
					{ id: 2, parentId: 1 }
				]
			}
		]
	])('reads a hostile file without failing: %s', (_name, file) => {
		expect(() => buildRunGraph(withSubgraph, file as JsonObject)).not.toThrow();
	});
});

const run = (prompt: ApiPrompt = t2i): WorkflowRun => ({
	...newWorkflowRun({ id: 'r', profileId: 'p', title: 'T', workflowId: null, prompt, seeds: {}, partner: false, now: 0 }),
	promptId: 'p1',
	status: 'queued'
});
const play = (r: WorkflowRun, events: ServerEvent[]) => events.reduce((acc, e, i) => applyServerEvent(acc, e, i + 1), r);
const states = (r: WorkflowRun, prompt: ApiPrompt = t2i) =>
	Object.fromEntries([...nodeViews(r, buildRunGraph(prompt).nodes)].map(([id, v]) => [id, v.state]));

describe('the state of each node', () => {
	const start: ServerEvent = { type: 'execution_start', promptId: 'p1' };
	const cached: ServerEvent = { type: 'execution_cached', promptId: 'p1', nodes: ['4', '6'] };
	const exec = (node: string | null): ServerEvent => ({ type: 'executing', promptId: 'p1', node });

	it.each<[string, ServerEvent[], Record<string, string>]>([
		['queued: all waiting', [], { '3': 'waiting', '4': 'waiting', '9': 'waiting' }],
		[
			'cached then running',
			[start, cached, exec('7'), exec('3')],
			{ '4': 'cached', '6': 'cached', '7': 'done', '3': 'running', '9': 'waiting' }
		],
		[
			'succeeded: ran or cached',
			[start, cached, exec('3'), { type: 'execution_success', promptId: 'p1' }],
			{ '4': 'cached', '3': 'done', '9': 'done' }
		],
		[
			'failed: the node is red, the ones after it did not run',
			[
				start,
				exec('4'),
				{
					type: 'execution_error',
					promptId: 'p1',
					nodeId: '4',
					nodeType: 'CheckpointLoaderSimple',
					exceptionType: 'ModelDownloadError',
					exceptionMessage: 'no such model',
					traceback: []
				}
			],
			{ '4': 'failed', '3': 'not-run' }
		],
		[
			'interrupted at a node',
			[start, exec('3'), { type: 'execution_interrupted', promptId: 'p1', nodeId: '3', nodeType: 'KSampler' }],
			{ '3': 'interrupted', '9': 'not-run' }
		]
	])('%s', (_name, events, expected) => {
		expect(states(play(run(), events))).toMatchObject(expected);
	});

	it('carries the step progress of the running node and the message of the failed one', () => {
		const running = play(run(), [start, exec('3'), { type: 'progress', promptId: 'p1', node: '3', value: 5, max: 20 }]);
		expect(nodeViews(running, buildRunGraph(t2i).nodes).get('3')).toEqual({ state: 'running', progress: { value: 5, max: 20 } });
		const failed = play(run(), [
			start,
			{
				type: 'execution_error',
				promptId: 'p1',
				nodeId: '4',
				nodeType: 'X',
				exceptionType: 'ModelDownloadError',
				exceptionMessage: 'no such model',
				traceback: []
			}
		]);
		expect(nodeViews(failed, buildRunGraph(t2i).nodes).get('4')).toMatchObject({
			state: 'failed',
			message: 'ModelDownloadError: no such model'
		});
	});

	it('names the inputs a submit-time problem names', () => {
		const r = { ...run(), status: 'failed' as const, nodeProblems: { '3': [{ inputName: 'steps', message: 'Value too big' }] } };
		expect(nodeViews(r, buildRunGraph(t2i).nodes).get('3')).toEqual({ state: 'failed', message: 'Value too big', inputs: ['steps'] });
	});

	it('says "not reported" for a v2 job rather than guessing, except the nodes it reports running or passed', () => {
		const r = { ...play(run(), [start, exec('7'), exec('3')]), jobLinks: { self: 'https://x/jobs/1', events: null, cancel: null } };
		expect(states(r)).toMatchObject({ '3': 'running', '7': 'done', '4': 'not-reported', '9': 'not-reported' });
	});

	it('a v2 count of finished nodes without ids shows the nodes it pins down, and no more', () => {
		const links = { jobLinks: { self: 'https://x/jobs/1', events: null, cancel: null } };
		const two = { ...play(run(), [start, { type: 'nodes_counted', promptId: 'p1', done: 2 }]), ...links };
		// The loader must come before all but the latent; the sampler and what follows wait; 5, 6, 7 are open.
		expect(states(two)).toMatchObject({ '4': 'done', '5': 'not-reported', '7': 'not-reported', '3': 'waiting', '9': 'waiting' });
		const four = { ...play(two, [{ type: 'nodes_counted', promptId: 'p1', done: 4 }]), ...links };
		expect(states(four)).toMatchObject({ '4': 'done', '5': 'done', '7': 'done', '3': 'running', '8': 'waiting' });
	});

	it('gives a subgraph box the most telling state of its inside', () => {
		expect(states(play(run(withSubgraph), [start, exec('5:2'), exec('5:3')]), withSubgraph)).toMatchObject({
			'1': 'waiting',
			'5': 'running'
		});
		expect(states(play(run(withSubgraph), [start, exec('5:2'), exec('9')]), withSubgraph)).toMatchObject({
			'5': 'running',
			'9': 'running'
		});
	});
});

/** Top: loader 4 → subgraph instance 10 ("Sampling") → decoder 8. Inside 10: two encoders → subgraph instance 3 ("Sampler core") holding the sampler. */
const nested: ApiPrompt = {
	'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'a.safetensors' } },
	'10:1': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1], text: 'a cat' } },
	'10:2': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1], text: 'blurry' } },
	'10:3:1': { class_type: 'KSampler', inputs: { model: ['4', 0], positive: ['10:1', 0], negative: ['10:2', 0] } },
	'8': { class_type: 'VAEDecode', inputs: { samples: ['10:3:1', 0], vae: ['4', 2] } }
};
const nestedUi: JsonObject = {
	nodes: [
		{ id: 4, type: 'CheckpointLoaderSimple', pos: [0, 0], size: [300, 100] },
		{ id: 10, type: 'sub-a', pos: [400, 0], size: [250, 120], title: 'My sampling' },
		{ id: 8, type: 'VAEDecode', pos: [800, 0], size: [200, 60] }
	],
	links: [],
	definitions: {
		subgraphs: [
			{
				id: 'sub-a',
				name: 'Sampling',
				nodes: [
					{ id: 1, type: 'CLIPTextEncode', pos: [100, 50], size: [300, 150] },
					{ id: 2, type: 'CLIPTextEncode', pos: [100, 300], size: [300, 150] },
					{ id: 3, type: 'sub-b', pos: [600, 150], size: [250, 100] }
				],
				links: [
					{ id: 105, origin_id: 1, origin_slot: 0, target_id: 3, target_slot: 1, type: 'CONDITIONING' },
					{ id: 106, origin_id: 2, origin_slot: 0, target_id: 3, target_slot: 2, type: 'CONDITIONING' }
				],
				groups: [{ title: 'Prompts', bounding: [80, 10, 340, 460] }],
				// Nested definitions may sit inside the definition that uses them.
				definitions: {
					subgraphs: [{ id: 'sub-b', name: 'Sampler core', nodes: [{ id: 1, type: 'KSampler', pos: [50, 60], size: [315, 262] }] }]
				}
			}
		]
	}
};

describe('the inside of a subgraph or group node, drawn as a level of its own', () => {
	const ids = (level: string) =>
		Object.fromEntries(buildRunGraph(nested, nestedUi, level).nodes.map((n) => [n.id, { members: n.members, title: n.title }]));

	it('shows at each level the boxes of that level, with path ids, members and the inside links only', () => {
		expect(ids('')).toEqual({
			'4': { members: [], title: 'CheckpointLoaderSimple' },
			'10': { members: ['10:1', '10:2', '10:3:1'], title: 'My sampling' },
			'8': { members: [], title: 'VAEDecode' }
		});
		expect(ids('10')).toEqual({
			'10:1': { members: [], title: 'CLIPTextEncode' },
			'10:2': { members: [], title: 'CLIPTextEncode' },
			'10:3': { members: ['10:3:1'], title: 'Sampler core' }
		});
		expect(ids('10:3')).toEqual({ '10:3:1': { members: [], title: 'KSampler' } });
		const inside = buildRunGraph(nested, nestedUi, '10');
		// The loader's links into the subgraph come from outside this level: not drawn inside it.
		expect(inside.edges.map((e) => [e.id, e.type])).toEqual([
			['10:1->10:3', 'CONDITIONING'],
			['10:2->10:3', 'CONDITIONING']
		]);
		expect(inside.nodes.filter(opensInto).map((n) => n.id)).toEqual(['10:3']);
		expect(inside.nodes.find((n) => n.id === '10:3')?.classType).toBe('Subgraph “Sampler core”');
	});

	it("keeps the author's layout and groups of the subgraph's definition, nested ones too", () => {
		const inside = layoutGraph(buildRunGraph(nested, nestedUi, '10'));
		expect(inside.layout).toBe('author');
		expect(inside.nodes.map((n) => [n.id, n.x, n.y])).toEqual([
			['10:1', 100, 50],
			['10:2', 100, 300],
			['10:3', 600, 150]
		]);
		expect(inside.groups.map((g) => g.title)).toEqual(['Prompts']);
		const core = buildRunGraph(nested, nestedUi, '10:3');
		expect(core.layout).toBe('author');
		expect(core.nodes[0]).toMatchObject({ x: 50, y: 60, width: 315 });
	});

	it('lays a level out automatically without a file, or when the file does not have it', () => {
		for (const file of [null, { nodes: [{ id: 10, type: 'CLIPTextEncode', pos: [0, 0] }] }]) {
			const inside = layoutGraph(buildRunGraph(nested, file, '10'));
			expect(inside.layout).toBe('auto');
			expect(inside.nodes.map((n) => n.id).sort()).toEqual(['10:1', '10:2', '10:3']);
			expect(overlaps(inside.nodes)).toEqual([]);
		}
	});

	it('opens a group node into its inner nodes (ids by index), laid out automatically when they carry no positions', () => {
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'a.png' } },
			'7:0': { class_type: 'ImageScale', inputs: { image: ['1', 0] } },
			'7:1': { class_type: 'ImageInvert', inputs: { image: ['7:0', 0] } }
		};
		const file: JsonObject = {
			nodes: [
				{ id: 1, type: 'LoadImage', pos: [0, 0], size: [200, 100] },
				{ id: 7, type: 'workflow>Scale and invert', pos: [300, 0], size: [200, 100] }
			],
			links: [],
			extra: {
				groupNodes: {
					'Scale and invert': {
						nodes: [
							{ type: 'ImageScale', index: 0 },
							{ type: 'ImageInvert', index: 1 }
						],
						links: [[0, 0, 1, 0, 5, 'IMAGE']]
					}
				}
			}
		};
		const top = buildRunGraph(prompt, file);
		expect(top.nodes.find((n) => n.id === '7')).toMatchObject({ title: 'Scale and invert', classType: 'Group node “Scale and invert”' });
		const inside = layoutGraph(buildRunGraph(prompt, file, '7'));
		expect(inside.layout).toBe('auto');
		expect(inside.nodes.map((n) => n.id)).toEqual(['7:0', '7:1']);
		expect(inside.edges.map((e) => [e.id, e.type])).toEqual([['7:0->7:1', 'IMAGE']]);
		const x = (id: string) => inside.nodes.find((n) => n.id === id)!.x;
		expect(x('7:0')).toBeLessThan(x('7:1'));
	});

	it.each([
		['10:3:1', '', '10'],
		['10:3:1', '10', '10:3'],
		['10:3:1', '10:3', '10:3:1'],
		['10:1', '10', '10:1'],
		['8', '10', undefined],
		['10:3', '', '10']
	])('maps the path id %s to its box at level "%s"', (id, level, box) => {
		expect(boxOf(memberIndex(buildRunGraph(nested, nestedUi, level).nodes), id)).toBe(box);
	});

	it('names the levels on the way down', () => {
		expect(levelPath('')).toEqual([]);
		expect(levelPath('10:3')).toEqual(['10', '10:3']);
	});

	it("gives each level's boxes their live state from the path ids", () => {
		const start: ServerEvent = { type: 'execution_start', promptId: 'p1' };
		const exec = (node: string): ServerEvent => ({ type: 'executing', promptId: 'p1', node });
		const running = play(run(nested), [start, exec('4'), exec('10:1'), exec('10:3:1')]);
		const at = (r: WorkflowRun, level: string) =>
			Object.fromEntries([...nodeViews(r, buildRunGraph(nested, nestedUi, level).nodes)].map(([id, v]) => [id, v.state]));
		expect(at(running, '')).toEqual({ '4': 'done', '10': 'running', '8': 'waiting' });
		expect(at(running, '10')).toEqual({ '10:1': 'done', '10:2': 'waiting', '10:3': 'running' });
		expect(at(running, '10:3')).toEqual({ '10:3:1': 'running' });
		const failed = play(running, [
			{
				type: 'execution_error',
				promptId: 'p1',
				nodeId: '10:3:1',
				nodeType: 'KSampler',
				exceptionType: 'RuntimeError',
				exceptionMessage: 'out of memory',
				traceback: []
			}
		]);
		expect(nodeViews(failed, buildRunGraph(nested, nestedUi, '10').nodes).get('10:3')).toMatchObject({
			state: 'failed',
			message: 'RuntimeError: out of memory'
		});
		const succeeded = play(running, [{ type: 'execution_success', promptId: 'p1' }]);
		expect(at(succeeded, '10')).toEqual({ '10:1': 'done', '10:2': 'done', '10:3': 'done' });
	});
});

describe('a level read from a hostile file', () => {
	it('keeps a node or input named __proto__ as an own entry, never a prototype', () => {
		const prompt = JSON.parse(
			'{"5":{"class_type":"Sub","inputs":{}},"5:__proto__":{"class_type":"KSampler","inputs":{"__proto__":["5:1",0]}},"5:1":{"class_type":"Load","inputs":{}}}'
		);
		const graph = buildRunGraph(prompt, null, '5');
		expect(graph.nodes.map((n) => n.id).sort()).toEqual(['5:1', '5:__proto__']);
		expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['5:1->5:__proto__']);
	});
});

describe('a workflow whose node ids are prototype names', () => {
	// Parsed from text, as a workflow file is: `__proto__` stays an own key.
	const prompt = JSON.parse(`{
		"constructor": { "class_type": "CheckpointLoaderSimple", "inputs": {} },
		"toString": { "class_type": "CLIPTextEncode", "inputs": { "clip": ["constructor", 1] } },
		"valueOf": { "class_type": "KSampler", "inputs": { "model": ["constructor", 0], "positive": ["toString", 0] } },
		"hasOwnProperty": { "class_type": "SaveImage", "inputs": { "images": ["valueOf", 0] } },
		"__proto__": { "class_type": "PreviewImage", "inputs": { "images": ["valueOf", 0] } }
	}`) as ApiPrompt;

	it('is laid out by dagre with every box placed apart', () => {
		const graph = layoutGraph(buildRunGraph(prompt));
		expect(graph.nodes.map((n) => n.id).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
		expect(graph.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
		expect(overlaps(graph.nodes)).toEqual([]);
		const x = new Map(graph.nodes.map((n) => [n.id, n.x]));
		expect(x.get('valueOf')!).toBeGreaterThan(x.get('constructor')!);
	});
});
