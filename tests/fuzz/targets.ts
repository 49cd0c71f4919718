/**
 * The fuzz registry: every parser of untrusted input, with the hostile inputs it is fed. The short
 * run (`fuzz.test.ts`, part of `npm test`) and the long run (`npm run fuzz`) both read this table;
 * a new parser is one entry. `regressions` are inputs that once broke a parser: tried first, always.
 */
import fc from 'fast-check';
import { decodeFrame } from '../../src/lib/workflows/protocol/frames';
import { parseServerEvent } from '../../src/lib/workflows/protocol/workflow-events';
import { ROUTER_ERROR_TYPES, ROUTER_HEADERS } from '../../src/lib/models/protocol/router-api';
import { readJson, responseError, type RawResponse } from '../../src/lib/core/rules/http-response';
import { parseObjectInfo } from '../../src/lib/workflows/protocol/object-info';
import { checkWorkflow, usesPartnerNodes } from '../../src/lib/workflows/rules/workflow-check';
import { importWorkflowText, nodeTitle, toApiPrompt } from '../../src/lib/workflows/rules/workflow-import';
import { importWorkflowTexts } from '../../src/lib/workflows/rules/converter/import-workflow';
import { parseHistoryFile } from '../../src/lib/history/rules/history-file';
import { readProfileLink } from '../../src/lib/settings/rules/profile-link';
import { parseRuntimeConfig } from '../../src/lib/core/protocol/runtime-config';
import { applyValues, workflowFieldGroups, workflowValues } from '../../src/lib/workflows/rules/object-info-fields';
import { placeErrors, prepareModelForm } from '../../src/lib/models/rules/schema-validate';
import type { Json } from '../../src/lib/core/protocol/json';
import { convertUiWorkflow } from '../../src/lib/workflows/rules/converter/convert';
import { parsePythonJson } from '../../src/lib/workflows/rules/converter/json-python';
import { fixtureDefinitions } from '../../src/lib/workflows/rules/converter/object-info.fixture';
import { fixture, FIXTURES, read } from '../../src/lib/workflows/protocol/files/workflow-files.fixture';
import { MAGICS, mutate, mutation } from '../../src/lib/workflows/protocol/files/file-mutations.fixture';
import { webmFirstFrame } from '../../src/lib/core/protocol/video/webm-first-frame';
import { mp4FirstFrame } from '../../src/lib/core/protocol/video/mp4-first-frame';
import { graphTarget, READER_TARGETS, summaryTarget } from './targets-readers';
import { SHARE_TARGETS } from './targets-share';
import { searchDoc } from '../../src/lib/timeline/rules/search-doc';
import { markParts, matchesAll, parseQuery, whereMatched } from '../../src/lib/timeline/rules/search-query';
import type { AnyRun } from '../../src/lib/core/protocol/run-kernel';
import { MemoryStore } from '../../src/lib/core/worker/kv-store';
import { readTimelineRecord } from '../../src/lib/core/rules/timeline-record';
import { readSearchChunk } from '../../src/lib/timeline/rules/search-chunk';
import { SearchIndex } from '../../src/lib/timeline/worker/search-index';
import { asParsedJson, hostileKey, jsonText, jsonValue, protoName, scalar, stackOverflowText } from './arbitraries';

export interface FuzzTarget {
	name: string;
	/** Bounded, hostile inputs. */
	arbitrary: fc.Arbitrary<unknown>;
	/** The parser (and what the app does next with its value); must return, never throw or hang. */
	parse: (input: unknown) => unknown;
	/** `parse` returns a promise (a reader of files): it must resolve, never reject or hang. */
	async?: true;
	/** Inputs that once broke this parser. */
	regressions?: unknown[];
	/** Inputs the long run must reach (default 100,000). */
	longRuns?: number;
}

const utf8 = new TextEncoder();

// ---- binary frames ---------------------------------------------------------------------------

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const metadataJson = fc
	.record(
		{
			node_id: fc.oneof(fc.string({ maxLength: 6 }), scalar),
			prompt_id: fc.oneof(fc.string({ maxLength: 6 }), scalar),
			display_node_id: scalar,
			parent_node_id: scalar,
			image_type: fc.oneof(fc.constantFrom('image/png', 'image/jpeg', 'image/gif'), scalar),
			['__proto__']: scalar,
			constructor: scalar
		},
		{ requiredKeys: [] }
	)
	.map((m) => utf8.encode(JSON.stringify(m)));
const imageBytes = fc.oneof(
	fc.uint8Array({ maxLength: 24 }),
	fc.constant(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0)),
	fc.constant(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))
);
const structuredFrame = fc
	.tuple(
		fc.oneof(fc.constantFrom(1, 3, 4), fc.nat({ max: 0xffffffff })),
		fc.oneof(fc.constantFrom(0, 1, 2, 0xffffffff), fc.nat({ max: 64 })),
		fc.oneof(metadataJson, fc.uint8Array({ maxLength: 32 })),
		imageBytes,
		fc.boolean()
	)
	.map(([type, second, head, image, exactLength]) => {
		const len = exactLength ? head.length : second;
		return Uint8Array.from([...u32(type), ...u32(len), ...head, ...image]);
	});
const frames: FuzzTarget = {
	name: 'binary frames',
	arbitrary: fc.oneof(fc.uint8Array({ maxLength: 48 }), structuredFrame),
	parse: (bytes) => decodeFrame(bytes as Uint8Array),
	longRuns: 1_000_000,
	regressions: [new Uint8Array(0), Uint8Array.of(0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff)]
};

// ---- JSON socket events ----------------------------------------------------------------------

const EVENT_TYPES = [
	'status',
	'notification',
	'execution_start',
	'executing',
	'progress',
	'progress_state',
	'executed',
	'execution_cached',
	'execution_success',
	'execution_error',
	'execution_interrupted',
	'feature_flags'
];
const EVENT_KEYS = [
	'prompt_id',
	'node',
	'display_node',
	'value',
	'max',
	'output',
	'nodes',
	'images',
	'video',
	'gifs',
	'filename',
	'status'
];
const eventJson = fc.record(
	{ type: fc.oneof(fc.constantFrom(...EVENT_TYPES), protoName, scalar), data: jsonValue(EVENT_KEYS) },
	{ requiredKeys: ['type'] }
);
const events: FuzzTarget = {
	name: 'socket events',
	arbitrary: jsonText(eventJson),
	parse: (text) => parseServerEvent(text as string),
	regressions: ['{"type":"executed","data":{"prompt_id":"p","node":"1","output":{"__proto__":{"images":[]}}}}']
};

// ---- router and workflow-service responses ----------------------------------------------------

const headerNames = [...Object.values(ROUTER_HEADERS), 'content-type', 'x-request-id', 'x-service-error-type'];
const errorBody = fc.record(
	{
		detail: fc.oneof(fc.string({ maxLength: 20 }), jsonValue(['loc', 'msg', 'type'])),
		error_type: fc.oneof(fc.constantFrom(...ROUTER_ERROR_TYPES), protoName, scalar),
		message: scalar,
		error: jsonValue(['message'])
	},
	{ requiredKeys: [] }
);
const response = fc.record({
	status: fc.oneof(
		fc.constantFrom(200, 201, 204, 301, 400, 401, 402, 403, 404, 422, 429, 500, 502, 503),
		fc.integer({ min: 100, max: 599 })
	),
	headers: fc.dictionary(
		fc.oneof(fc.constantFrom(...headerNames), protoName),
		fc.oneof(
			fc.constantFrom(...ROUTER_ERROR_TYPES),
			protoName,
			fc.constantFrom('text/html', 'application/json'),
			fc.string({ maxLength: 10 })
		),
		{ maxKeys: 4, noNullPrototype: true }
	),
	body: fc.oneof(jsonText(errorBody), jsonText(jsonValue()), fc.constantFrom('<!doctype html><p>login</p>', '', '   '))
});
const routerResponses: FuzzTarget = {
	name: 'service responses',
	arbitrary: response,
	parse: (input) => {
		const { status, headers, body } = input as { status: number; headers: Record<string, string>; body: string };
		const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
		const raw: RawResponse = { status, body, header: (name) => lower.get(name.toLowerCase()) ?? null };
		return [readJson(raw, 'router'), readJson(raw, 'workflow'), responseError(raw, 'router'), responseError(raw, 'workflow')];
	},
	regressions: [{ status: 400, headers: { 'x-service-error-type': 'constructor' }, body: '{}' }]
};

// ---- schema documents to fields, and the validator --------------------------------------------

const SCHEMA_NAMES = ['Input', 'Size', 'Tree', 'constructor', '__proto__', 'toString'];
const refTarget = fc.oneof(
	fc.constantFrom(...SCHEMA_NAMES).map((n) => `#/components/schemas/${n}`),
	fc.constantFrom('#/components/schemas/Missing', '#/__proto__', '#/components/constructor', 'https://example.com/s.json', '#', '#/', '%')
);
const keyword = (tie: (key: string) => fc.Arbitrary<unknown>) =>
	fc.oneof(
		fc
			.oneof(
				fc.constantFrom('string', 'integer', 'number', 'boolean', 'array', 'object', 'null'),
				fc.array(fc.constantFrom('string', 'null')),
				scalar
			)
			.map((v) => ['type', v] as const),
		fc
			.dictionary(hostileKey(['prompt', 'seed', 'image_url', 'size']), tie('schema'), { maxKeys: 4, noNullPrototype: true })
			.map((v) => ['properties', v] as const),
		fc.oneof(fc.array(hostileKey(['prompt', 'seed'])), scalar).map((v) => ['required', v] as const),
		fc.oneof(fc.array(scalar, { maxLength: 4 }), scalar).map((v) => ['enum', v] as const),
		scalar.map((v) => ['const', v] as const),
		refTarget.map((v) => ['$ref', v] as const),
		fc.oneof(fc.array(tie('schema'), { maxLength: 3 }), scalar).map((v) => ['anyOf', v] as const),
		fc.array(tie('schema'), { maxLength: 3 }).map((v) => ['oneOf', v] as const),
		fc.oneof(fc.array(tie('schema'), { maxLength: 2 }), scalar).map((v) => ['allOf', v] as const),
		fc.oneof(tie('schema'), scalar).map((v) => ['items', v] as const),
		fc.oneof(fc.constantFrom('^[a-z]+$', '[', '(?<', '\\', '(a+)+$', '\\p{L}'), scalar).map((v) => ['pattern', v] as const),
		fc.tuple(
			fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxItems', 'multipleOf', 'x-order'),
			fc.oneof(scalar, fc.boolean())
		),
		fc.tuple(fc.constantFrom('nullable', 'writeOnly', 'additionalProperties'), fc.boolean()),
		jsonValue(['prompt'], 2).map((v) => ['default', v] as const),
		fc.constantFrom('uri', 'password', 'binary', 'date-time').map((v) => ['format', v] as const),
		fc.array(hostileKey(['prompt']), { maxLength: 3 }).map((v) => ['x-fal-order-properties', v] as const)
	);
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
	schema: fc.oneof(
		{ depthSize: 'small', maxDepth: 3 },
		fc.record({ $ref: refTarget }),
		// A few keywords per schema, each possibly of the wrong shape.
		fc.array(keyword(tie), { maxLength: 5 }).map((pairs) => Object.fromEntries(pairs))
	)
}));
const schemaDocument = fc
	.tuple(
		fc.dictionary(fc.constantFrom(...SCHEMA_NAMES), schema, { maxKeys: 4, noNullPrototype: true }),
		fc.oneof(fc.constant({ $ref: '#/components/schemas/Input' }), schema),
		fc.boolean(),
		jsonValue(['prompt', 'seed', 'size'], 3)
	)
	.map(([schemas, body, authored, values]) =>
		asParsedJson({
			doc: {
				openapi: '3.1.0',
				'x-service-input-schema-authored': authored,
				paths: { '/run': { post: { requestBody: { content: { 'application/json': { schema: body } } } } } },
				components: { schemas }
			},
			values
		})
	);
const schemaForms: FuzzTarget = {
	name: 'schema documents',
	arbitrary: schemaDocument,
	parse: (input) => {
		const { doc, values } = input as { doc: Record<string, unknown>; values: unknown };
		const { form, validator } = prepareModelForm(doc, 'Input');
		const errors = validator ? [...validator.validate(form.defaults), ...validator.validate(values)] : [];
		return { form, placed: placeErrors(form.group.fields, values, errors) };
	},
	regressions: [
		asParsedJson({
			doc: {
				paths: {
					'/run': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } }
				},
				components: { schemas: { Input: { $ref: '#/components/schemas/Input' } } }
			},
			values: {}
		})
	]
};

// ---- object_info and the workflow form built from it ------------------------------------------

const NODE_TYPES = ['KSampler', 'CLIPTextEncode', 'SaveImage', 'constructor', '__proto__', 'toString'];
const INPUT_NAMES = ['seed', 'text', 'image', 'steps', 'constructor', 'valueOf', '__proto__'];
const inputSpec = fc.oneof(
	fc.tuple(
		fc.oneof(fc.constantFrom('INT', 'FLOAT', 'STRING', 'BOOLEAN', 'COMBO', 'IMAGE'), fc.array(scalar, { maxLength: 3 }), scalar),
		jsonValue(['min', 'max', 'default', 'options', 'multiline', 'image_upload'], 2)
	),
	jsonValue([], 2)
);
const nodeDefinition = fc.oneof(
	fc.record(
		{
			input: fc.record(
				{
					required: fc.dictionary(fc.constantFrom(...INPUT_NAMES), inputSpec, { maxKeys: 3, noNullPrototype: true }),
					optional: fc.oneof(fc.dictionary(fc.constantFrom(...INPUT_NAMES), inputSpec, { maxKeys: 2, noNullPrototype: true }), scalar)
				},
				{ requiredKeys: [] }
			),
			output: fc.oneof(fc.array(fc.oneof(fc.constantFrom('IMAGE', 'LATENT'), scalar), { maxLength: 3 }), scalar),
			output_name: fc.oneof(fc.array(scalar, { maxLength: 3 }), scalar),
			display_name: scalar,
			api_node: scalar
		},
		{ requiredKeys: [] }
	),
	scalar
);
const link = fc.tuple(fc.oneof(fc.constantFrom('1', '2', 'constructor', '__proto__'), fc.nat(3)), fc.integer({ min: -1, max: 3 }));
const promptNode = fc.record(
	{
		class_type: fc.oneof(fc.constantFrom(...NODE_TYPES), scalar),
		inputs: fc.dictionary(fc.constantFrom(...INPUT_NAMES), fc.oneof(scalar, link), { maxKeys: 3, noNullPrototype: true }),
		_meta: jsonValue(['title'], 1)
	},
	{ requiredKeys: ['class_type'] }
);
const objectInfo = fc
	.tuple(
		fc.dictionary(fc.constantFrom(...NODE_TYPES), nodeDefinition, { maxKeys: 4, noNullPrototype: true }),
		fc.dictionary(fc.constantFrom('1', '2', '3', 'constructor', '__proto__', 'toString'), promptNode, { maxKeys: 4, noNullPrototype: true })
	)
	.map(([info, prompt]) => asParsedJson({ info, prompt }));
const objectInfoForms: FuzzTarget = {
	name: 'object_info',
	arbitrary: objectInfo,
	parse: (input) => {
		const { info, prompt } = input as { info: Json; prompt: Json };
		const parsed = parseObjectInfo(info);
		const imported = toApiPrompt(prompt);
		if (!parsed.ok || !imported.ok) return [parsed, imported];
		const p = imported.prompt;
		// What the app does next: the definitions cross to the page (a structured clone), the form is built from them.
		structuredClone(parsed.nodes);
		const groups = workflowFieldGroups(p, parsed.nodes);
		return [parsed, groups, checkWorkflow(p, parsed.nodes), usesPartnerNodes(p, parsed.nodes), applyValues(p, workflowValues(p))];
	}
};

// ---- workflow import -------------------------------------------------------------------------

const workflowJson = fc.oneof(
	fc.dictionary(fc.oneof(fc.constantFrom('1', '2', 'constructor', '__proto__'), fc.string({ maxLength: 4 })), promptNode, {
		maxKeys: 4,
		noNullPrototype: true
	}),
	fc.record({ prompt: fc.dictionary(fc.constantFrom('1', '__proto__'), promptNode, { maxKeys: 2, noNullPrototype: true }) }),
	fc.record({ nodes: fc.array(jsonValue([], 1), { maxLength: 2 }), links: fc.array(scalar, { maxLength: 2 }) }),
	jsonValue(['class_type', 'inputs', 'prompt', 'nodes', 'links'])
);
const workflowImport: FuzzTarget = {
	name: 'workflow import',
	arbitrary: fc.oneof(
		{ weight: 6, arbitrary: jsonText(workflowJson) },
		{
			weight: 1,
			arbitrary: fc.dictionary(fc.oneof(fc.constantFrom('prompt', 'workflow'), protoName), jsonText(workflowJson), {
				maxKeys: 2,
				noNullPrototype: true
			})
		}
	),
	parse: (input) => {
		const chunks = input as Record<string, string>;
		const texts = {
			...(Object.hasOwn(chunks, 'prompt') ? { prompt: chunks['prompt'] } : {}),
			...(Object.hasOwn(chunks, 'workflow') ? { workflow: chunks['workflow'] } : {})
		};
		const result = typeof input === 'string' ? importWorkflowText(input) : importWorkflowTexts(texts, '"fuzz.png"', null);
		if (!result.ok) return result;
		for (const id of Object.keys(result.prompt)) nodeTitle(result.prompt, id);
		// What the app does next: the library stores it in IndexedDB (a structured clone).
		return structuredClone(result);
	},
	regressions: [
		'{"__proto__":{"class_type":"KSampler","inputs":{}}}',
		'{"1":{"class_type":"constructor","inputs":{"__proto__":1}}}',
		`{"1":{"class_type":"KSampler","inputs":{"seed":${stackOverflowText()}}}}`
	]
};

// ---- history files, profile links, runtime config ---------------------------------------------

const historyJson = fc.record(
	{
		format: fc.oneof(fc.constant('runboard-history'), scalar),
		version: fc.oneof(fc.constant(1), scalar),
		exportedAt: scalar,
		records: fc.oneof(
			fc.array(fc.record({ key: fc.oneof(fc.constantFrom('run:1', 'modelrun:2'), scalar), value: jsonValue() }, { requiredKeys: [] }), {
				maxLength: 3
			}),
			scalar
		),
		bytes: fc.oneof(
			fc.array(
				fc.record(
					{
						key: fc.oneof(fc.constantFrom('output:1', 'models:bytes:2'), scalar),
						type: scalar,
						base64: fc.oneof(fc.base64String({ maxLength: 12 }), scalar)
					},
					{ requiredKeys: [] }
				),
				{ maxLength: 3 }
			),
			scalar
		)
	},
	{ requiredKeys: [] }
);
const history: FuzzTarget = {
	name: 'history files',
	arbitrary: jsonText(historyJson),
	parse: (text) => {
		const result = parseHistoryFile(text as string);
		// What the app does next: each record is written to IndexedDB (a structured clone).
		return result.ok ? structuredClone(result) : result;
	},
	regressions: [`{"format":"runboard-history","version":1,"records":[{"key":"run:1","value":${stackOverflowText()}}]}`]
};

const base64Url = (text: string) => Buffer.from(text).toString('base64url');
const linkJson = fc.record(
	{
		n: scalar,
		p: fc.oneof(fc.constantFrom('demo', 'local-comfyui', 'cloud'), protoName, scalar),
		w: fc.oneof(fc.constantFrom('http://127.0.0.1:8188', 'https://cloud.example', 'javascript:alert(1)', 'ftp://x', ''), scalar),
		r: fc.oneof(fc.constantFrom('https://router.example', 'data:,x', ''), scalar)
	},
	{ requiredKeys: [] }
);
const profileLinks: FuzzTarget = {
	name: 'profile links',
	arbitrary: fc.oneof({ weight: 4, arbitrary: jsonText(linkJson).map(base64Url) }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }),
	parse: (param) => readProfileLink(param as string) ?? null,
	regressions: [base64Url('{"p":"constructor","w":"http://127.0.0.1:8188","r":""}')]
};

const configJson = fc.record(
	{
		demo: fc.oneof(
			fc.record(
				{
					name: scalar,
					workflowUrl: fc.oneof(fc.constantFrom('http://127.0.0.1:8711', 'javascript:x', 'ftp://a'), scalar),
					routerUrl: fc.oneof(fc.constant('http://127.0.0.1:8712'), scalar),
					apiKey: scalar
				},
				{ requiredKeys: [] }
			),
			scalar
		),
		['__proto__']: jsonValue([], 1)
	},
	{ requiredKeys: [] }
);
const runtimeConfig: FuzzTarget = {
	name: 'runtime config',
	arbitrary: jsonText(configJson),
	parse: (text) => parseRuntimeConfig(text as string)
};

// ---- search: a typed query over a run from anywhere (a history file's records are listed loosely) ----

const looseRun = fc.record(
	{
		kind: fc.constantFrom('workflow', 'model'),
		id: fc.string({ maxLength: 6 }),
		profileId: scalar,
		title: scalar,
		modelId: scalar,
		status: scalar,
		createdAt: fc.oneof(fc.integer(), scalar),
		workflowId: scalar,
		prompt: fc.dictionary(
			fc.string({ maxLength: 3 }),
			fc.record({ class_type: scalar, inputs: jsonValue(['text', 'negative', 'seed', 'lora_name']) })
		),
		body: jsonValue(['prompt', 'negative_prompt', 'loras', 'messages', 'content', 'seed']),
		seeds: fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), scalar), scalar),
		outputs: fc.oneof(
			fc.array(fc.record({ kind: scalar, ref: fc.oneof(scalar, fc.record({ filename: scalar, label: scalar })) }), { maxLength: 3 }),
			scalar
		),
		texts: fc.oneof(fc.array(scalar, { maxLength: 2 }), scalar),
		result: fc.oneof(fc.record({ assets: fc.oneof(fc.array(fc.record({ kind: scalar }), { maxLength: 2 }), scalar), text: scalar }), scalar)
	},
	{ requiredKeys: ['kind'] }
);
const search: FuzzTarget = {
	name: 'search',
	arbitrary: fc.tuple(looseRun, fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('seed:', '"', 'a:"b', '\u0001x', 'prompt:"a b'))),
	parse: (input) => {
		const [run, query] = input as [AnyRun, string];
		const doc = searchDoc(run);
		const terms = parseQuery(query);
		return [
			matchesAll(doc, terms),
			whereMatched(doc, terms),
			markParts(
				query,
				terms.map((t) => t.text)
			)
		];
	}
};

// ---- stored search records: what IndexedDB hands back under `tl:` and `sc:` (another version, another tab, a bug) ----

const storedKey = fc
	.tuple(fc.nat(5), fc.constantFrom('a', 'b', 'c', '\u001e', ''))
	.map(([at, id]) => `tl:${String(at).padStart(13, '0')}:${id}`);
const storedText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.constantFrom('\n\u0001red boat', '\n\u0002blurry\u001e', '', 'x'.repeat(300)),
	scalar
);
const storedEntryValue = fc.oneof(
	fc.record(
		{
			id: fc.oneof(fc.constantFrom('a', 'b', 'c', ''), scalar),
			kind: fc.oneof(fc.constantFrom('workflow', 'model'), scalar),
			profileId: fc.oneof(fc.constant('p'), scalar),
			status: fc.oneof(fc.constant('succeeded'), scalar),
			createdAt: fc.oneof(fc.nat(5), scalar),
			searchText: storedText
		},
		{ requiredKeys: [] }
	),
	jsonValue(['id', 'searchText'], 2)
);
const storedChunkValue = fc.oneof(
	fc.record(
		{
			after: fc.oneof(fc.constant('tl:'), storedKey, scalar),
			to: fc.oneof(storedKey, scalar),
			ids: fc.oneof(fc.constantFrom('a', 'a\u001eb', '', '\u001e'), scalar),
			texts: fc.oneof(storedText, fc.constantFrom('\n\u0001red\u001e\n\u0001boat', '\u001e\u001e'))
		},
		{ requiredKeys: [] }
	),
	jsonValue(['after', 'to', 'ids', 'texts'], 2)
);
const storedSearch: FuzzTarget = {
	name: 'stored search records',
	arbitrary: fc.tuple(
		fc.array(fc.tuple(storedKey, storedEntryValue), { maxLength: 4 }),
		fc.array(fc.tuple(storedKey, storedChunkValue), { maxLength: 3 }),
		fc.array(fc.tuple(storedKey, storedText), { maxLength: 2 }),
		fc.constantFrom('red', 'prompt:boat', 'b', '"red boat"')
	),
	async: true,
	// What a search does with them: read every record through its parser, scan, then write chunks from them.
	parse: async (input) => {
		const [entries, chunks, legacy, query] = input as [
			Array<[string, unknown]>,
			Array<[string, unknown]>,
			Array<[string, unknown]>,
			string
		];
		const kv = new MemoryStore();
		await kv.setMany([
			...entries,
			...chunks.map(([key, value]): [string, unknown] => [key.replace('tl:', 'sc:'), value]),
			...legacy.map(([key, value]): [string, unknown] => [key.replace('tl:', 'sx:'), value])
		]);
		const index = new SearchIndex(kv, 60_000, () => 400 * 86_400_000, 0);
		const hits = await index.search(parseQuery(query));
		await index.sealing;
		return [hits, entries.map(([, value]) => readTimelineRecord(value)), chunks.map(([key, value]) => readSearchChunk(value, key))];
	}
};

// ---- UI-format workflows (the converter) -------------------------------------------------------

const UI_NODE_TYPES = ['KSampler', 'CheckpointLoaderSimple', 'CLIPTextEncode', 'SaveImage', 'PrimitiveNode', 'Reroute', 'Note'];
const uiSlot = fc.record(
	{
		name: hostileKey(['seed', 'image', 'model']),
		type: fc.oneof(fc.constantFrom('IMAGE', 'MODEL', '*', 'INT'), scalar),
		link: scalar,
		widget: jsonValue([], 1)
	},
	{ requiredKeys: [] }
);
const uiNodeJson = fc.record(
	{
		id: fc.oneof(fc.integer({ min: -20, max: 12 }), scalar),
		type: fc.oneof(fc.constantFrom(...UI_NODE_TYPES), protoName, scalar),
		mode: fc.oneof(fc.constantFrom(0, 2, 4), scalar),
		inputs: fc.oneof(fc.array(uiSlot, { maxLength: 4 }), scalar),
		outputs: fc.oneof(
			fc.array(fc.record({ type: scalar, links: fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 3 }) }), { maxLength: 3 }),
			scalar
		),
		widgets_values: fc.oneof(fc.array(scalar, { maxLength: 6 }), jsonValue(['seed', 'text'], 2)),
		title: scalar,
		properties: jsonValue(['cnr_id', 'Node name for S&R'], 2)
	},
	{ requiredKeys: ['id', 'type'] }
);
const uiLink = fc.oneof(
	fc.tuple(
		fc.integer({ min: 0, max: 12 }),
		fc.integer({ min: -20, max: 12 }),
		fc.nat(3),
		fc.integer({ min: -20, max: 12 }),
		fc.nat(3),
		scalar
	),
	fc.record(
		{ id: scalar, origin_id: scalar, origin_slot: scalar, target_id: scalar, target_slot: scalar, type: scalar },
		{ requiredKeys: [] }
	)
);
const uiGraph = fc.record({ nodes: fc.array(uiNodeJson, { maxLength: 8 }), links: fc.array(uiLink, { maxLength: 10 }) });
const uiWorkflowJson = fc
	.tuple(
		uiGraph,
		fc.array(
			fc
				.tuple(fc.constantFrom('sg-a', 'sg-b', '__proto__'), uiGraph)
				.map(([id, graph]) => ({ id, ...graph, inputs: [], outputs: [], widgets: [] })),
			{ maxLength: 2 }
		),
		fc.constantFrom(0.4, 1, 'x')
	)
	.map(([graph, subgraphs, version]) => ({ ...graph, version, definitions: { subgraphs } }));
const fixtureNodes = fixtureDefinitions();
const uiWorkflows: FuzzTarget = {
	name: 'UI-format workflows',
	arbitrary: jsonText(uiWorkflowJson),
	parse: (text) => {
		const parsed = parsePythonJson(text as string);
		return parsed.ok ? convertUiWorkflow(parsed.value, fixtureNodes) : parsed;
	},
	regressions: ['{"nodes":[{"id":1,"type":"__proto__"}],"links":[]}', stackOverflowText(20_000, '{"nodes":')]
};

// ---- files ComfyUI writes (PNG, WebP, FLAC, MP3, Opus, MP4, WebM) ------------------------------

const realFiles = FIXTURES.map(([name]) => fixture(name));
const workflowFiles: FuzzTarget = {
	name: 'workflow files',
	async: true,
	arbitrary: fc.oneof(
		fc.tuple(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 600 })).map(([magic, rest]) => new Uint8Array([...magic, ...rest])),
		fc
			.tuple(fc.nat(realFiles.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }))
			.map(([i, edits]) => mutate(realFiles[i]!, edits))
	),
	// What the import does with a file: read its metadata, bounded, into texts or a typed error.
	parse: (bytes) => read(bytes as Uint8Array, 'fuzz.bin')
};

// ---- a video's first frame, read in the worker for a sweep cell's poster (WebM, MP4) ------------

const videoFiles = ['video.mp4', 'video.webm'].map((name) => fixture(name));
const videoFirstFrames: FuzzTarget = {
	name: 'video first frames',
	async: true,
	arbitrary: fc.oneof(
		fc.tuple(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 600 })).map(([magic, rest]) => new Uint8Array([...magic, ...rest])),
		fc
			.tuple(fc.nat(videoFiles.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }))
			.map(([i, edits]) => mutate(videoFiles[i]!, edits))
	),
	// Both readers on every input, as the poster maker tries them on what the server sent.
	parse: async (input) => {
		const bytes = input as Uint8Array;
		return [webmFirstFrame(bytes), await mp4FirstFrame({ size: bytes.length, slice: async (start, end) => bytes.subarray(start, end) })];
	}
};

export const FUZZ_TARGETS: FuzzTarget[] = [
	frames,
	events,
	routerResponses,
	schemaForms,
	objectInfoForms,
	workflowImport,
	history,
	profileLinks,
	runtimeConfig,
	uiWorkflows,
	workflowFiles,
	videoFirstFrames,
	search,
	storedSearch,
	...READER_TARGETS,
	...SHARE_TARGETS,
	graphTarget(promptNode, uiWorkflowJson),
	summaryTarget(schemaDocument)
];

export function fuzzTarget(name: string): FuzzTarget {
	const target = FUZZ_TARGETS.find((t) => t.name === name);
	if (!target) throw new Error(`no fuzz target "${name}"; the targets are: ${FUZZ_TARGETS.map((t) => t.name).join(', ')}`);
	return target;
}
