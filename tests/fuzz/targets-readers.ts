/**
 * Fuzz targets for the readers that came after the first registry: the v2 event stream (SSE framing
 * and each frame's JSON), v2 jobs and assets, the workflow service's JSON answers, the run graph
 * (built from a workflow and its file, then laid out), the model summaries behind the catalog tiles,
 * and schema patterns that backtrack. `targets.ts` hands in the arbitraries it already has.
 */
import fc from 'fast-check';
import { createV2EventReader, type V2StreamEvent } from '../../src/lib/workflows/protocol/v2-events';
import { parseV2Asset, parseV2Envelope, parseV2Job, parseV2NodeErrors } from '../../src/lib/workflows/protocol/workflow-v2-parse';
import {
	parseCancelled,
	parseFromHashName,
	parseServerVersion,
	parseHistory,
	parseJobStatus,
	parseNodeErrors,
	parseQueue,
	parseRejection,
	parseSubmitAccepted
} from '../../src/lib/workflows/protocol/workflow-api-parse';
import { buildRunGraph } from '../../src/lib/workflows/rules/run-graph';
import { layoutGraph } from '../../src/lib/workflows/rules/run-graph-layout';
import { parseSummary, summariseSchema } from '../../src/lib/models/rules/model-summary';
import { parseCatalogPage } from '../../src/lib/models/rules/model-catalog';
import { InputValidator } from '../../src/lib/models/rules/schema-validate';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import type { Json, JsonObject } from '../../src/lib/core/protocol/json';
import { asParsedJson, hostileKey, jsonText, jsonValue, protoName, scalar } from './arbitraries';
import type { FuzzTarget } from './targets';

const BASE = 'https://api.example.test/api/v2/jobs/job_1';
const hostileText = fc.oneof(
	fc.string({ maxLength: 12 }),
	fc.string({ unit: 'binary', maxLength: 8 }),
	fc.constantFrom('\ud800', 'a\udc00b', '%', '../..', 'javascript:alert(1)', '__proto__'),
	protoName
);

// ---- v2 jobs, assets and error envelopes --------------------------------------------------------

const JOB_KEYS = ['id', 'status', 'urls', 'self', 'events', 'cancel', 'outputs', 'progress', 'error', 'metrics', 'node_id', 'url', 'name'];
const jobJson = fc
	.record(
		{
			id: fc.oneof(hostileText, scalar),
			status: fc.oneof(fc.constantFrom('queued', 'running', 'succeeded', 'failed', 'cancelled'), scalar),
			urls: fc.oneof(fc.record({ self: fc.oneof(hostileText, scalar), events: scalar, cancel: hostileText }, { requiredKeys: [] }), scalar),
			outputs: fc.oneof(
				fc.array(
					fc.record(
						{ id: hostileText, node_id: hostileText, name: hostileText, url: hostileText, type: scalar, size_bytes: scalar },
						{ requiredKeys: [] }
					),
					{ maxLength: 3 }
				),
				scalar
			),
			progress: jsonValue(['value', 'nodes_done', 'nodes_total', 'step'], 1),
			error: jsonValue(['code', 'message', 'node_id'], 1),
			metrics: jsonValue(['queue_ms', '__proto__'], 1),
			created_at: fc.oneof(fc.constantFrom('2026-11-24T10:00:00Z', '2026-11-24T10:00:00.123456+00:00'), scalar)
		},
		{ requiredKeys: [] }
	)
	.map((job) => asParsedJson(job));
const v2Answers: FuzzTarget = {
	name: 'v2 jobs and assets',
	arbitrary: fc.tuple(fc.oneof(jobJson, jsonValue(JOB_KEYS)), fc.oneof(fc.constant(BASE), hostileText)),
	parse: (input) => {
		const [value, base] = input as [Json, string];
		const envelope = parseV2Envelope(value);
		return {
			job: parseV2Job(value, base),
			asset: parseV2Asset(value, base),
			envelope,
			nodeErrors: [...parseV2NodeErrors(envelope?.details ?? null)]
		};
	},
	regressions: [[{ id: '\ud800', status: 'running' }, BASE]]
};

// ---- the v2 event stream: SSE bytes in any chunks ----------------------------------------------

const EVENT_NAMES = ['status', 'progress', 'preview', 'output', 'log', 'message', '__proto__', 'constructor'];
const sseFrame = fc
	.tuple(
		fc.oneof(fc.constantFrom(...EVENT_NAMES), hostileText),
		jsonText(jsonValue(['status', 'value', 'data_base64', 'id', 'node_id', 'level'], 2))
	)
	.map(([name, data]) => `event: ${name}\ndata: ${data.replace(/\n/g, '\ndata: ')}\n\n`);
const sseText = fc
	.array(
		fc.oneof(
			{ weight: 6, arbitrary: sseFrame },
			{ weight: 1, arbitrary: fc.constantFrom(': keepalive\n\n', 'retry: x\n', 'id: \0\n', '\r\n', 'data:') }
		),
		{ maxLength: 8 }
	)
	.map((parts) => parts.join(''));
const sseStream: FuzzTarget = {
	name: 'v2 event stream',
	arbitrary: fc.tuple(
		fc.oneof(
			sseText.map((t) => new TextEncoder().encode(t)),
			fc.uint8Array({ maxLength: 64 })
		),
		fc.array(fc.nat(), { maxLength: 6 })
	),
	parse: (input) => {
		const [bytes, cuts] = input as [Uint8Array, number[]];
		const events: V2StreamEvent[] = [];
		const reader = createV2EventReader(BASE, (e) => events.push(e));
		// The network splits the body anywhere, inside a UTF-8 character too.
		const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
		let from = 0;
		for (const cut of [...at, bytes.length]) {
			reader.feed(bytes.subarray(from, cut));
			from = cut;
		}
		reader.end();
		return events;
	},
	regressions: [[new TextEncoder().encode('event: log\ndata: {"level":{"valueOf":1},"message":{"toString":"x"}}\n\n'), []]]
};

// ---- the workflow service's JSON answers (v1, a local ComfyUI) ------------------------------------

const serviceAnswers: FuzzTarget = {
	name: 'workflow service answers',
	arbitrary: fc.tuple(
		jsonValue([
			'prompt_id',
			'status',
			'status_str',
			'outputs',
			'queue_running',
			'queue_pending',
			'error',
			'node_errors',
			'name',
			'deleted',
			'p1'
		]),
		fc.oneof(fc.constant('p1'), protoName)
	),
	parse: (input) => {
		const [json, promptId] = input as [Json, string];
		return {
			submitted: parseSubmitAccepted(json) ?? null,
			status: parseJobStatus(json),
			history: parseHistory(json, promptId),
			queue: parseQueue(json),
			cancelled: parseCancelled(json),
			fromHash: parseFromHashName(json) ?? null,
			version: parseServerVersion(json),
			rejection: parseRejection(json) ?? null,
			nodeErrors: parseNodeErrors(json)
		};
	}
};

// ---- the run graph: a workflow (and its file) drawn, then laid out -----------------------------

export function graphTarget(promptNode: fc.Arbitrary<unknown>, uiWorkflow: fc.Arbitrary<unknown>): FuzzTarget {
	const ids = fc.oneof(
		fc.constantFrom('1', '2', '3', '5:1', '5:2', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'),
		hostileText
	);
	return {
		name: 'run graph',
		arbitrary: fc
			.tuple(
				fc.dictionary(ids, promptNode, { maxKeys: 6, noNullPrototype: true }),
				fc.option(uiWorkflow),
				fc.constantFrom('', '5', 'constructor', '__proto__')
			)
			.map(([prompt, ui, level]) => asParsedJson({ prompt, ui, level })),
		parse: (input) => {
			const { prompt, ui, level } = input as { prompt: ApiPrompt; ui: JsonObject | null; level: string };
			return layoutGraph(buildRunGraph(prompt, ui, level));
		},
		regressions: [
			asParsedJson({
				prompt: { constructor: { class_type: 'A', inputs: {} }, toString: { class_type: 'B', inputs: { a: ['constructor', 0] } } },
				ui: null,
				level: ''
			})
		]
	};
}

// ---- the model summaries behind the catalog tiles ----------------------------------------------

export function summaryTarget(schemaDocument: fc.Arbitrary<unknown>): FuzzTarget {
	return {
		name: 'model summaries',
		arbitrary: fc.tuple(
			schemaDocument,
			jsonValue(['modelId', 'kind', 'needs', 'etag', 'title', 'sentence', 'description']),
			jsonValue(['data', 'models', 'id', 'next', 'has_more', 'billing'])
		),
		parse: (input) => {
			const [{ doc }, saved, page] = input as [{ doc: Record<string, unknown> }, unknown, Json];
			const summary = summariseSchema('fuzz/model', doc, null);
			// What IndexedDB gives back: the summary itself, and anything else stored under its key.
			return { summary, again: parseSummary(structuredClone(summary)), saved: parseSummary(saved) ?? null, page: parseCatalogPage(page) };
		}
	};
}

// ---- schema patterns that backtrack --------------------------------------------------------------

/** Nested quantifiers and alternations that take the page's RegExp exponential time. */
const EVIL = ['(x+x+)+y', '(a|a)+$', '(a|aa)+b', '^(\\w+\\s?)*$', '(.*a){12}', '([a-z]+)*=', '(?=a)a+$', '(a)\\1+$', '\\u{1F600}+(x*)*$'];
const pattern = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...EVIL) },
	{
		weight: 2,
		arbitrary: fc
			.array(fc.constantFrom('(', ')', 'x', '+', '*', '?', '|', 'a', '.', '\\s', '[a-z]', '{2,}', '^', '$'), { maxLength: 12 })
			.map((p) => p.join(''))
	},
	{ weight: 1, arbitrary: fc.string({ maxLength: 10 }) }
);
const subject = fc.oneof(
	fc
		.tuple(fc.constantFrom('x', 'a', 'ab', 'a ', '😀'), fc.integer({ min: 10, max: 5_000 }), fc.constantFrom('', '!', 'z', '\n'))
		.map(([unit, n, end]) => unit.repeat(n) + end),
	fc.string({ maxLength: 40 })
);
const patterns: FuzzTarget = {
	name: 'backtracking patterns',
	arbitrary: fc.tuple(pattern, subject, hostileKey(['code'])),
	parse: (input) => {
		const [source, text, name] = input as [string, string, string];
		const property = Object.create(null) as Record<string, unknown>;
		property[name] = { type: 'string', pattern: source };
		const body = Object.create(null) as Record<string, unknown>;
		body[name] = text;
		return new InputValidator({ type: 'object', properties: property }).validate(body);
	},
	regressions: [['(x+x+)+y', 'x'.repeat(40), 'code']]
};

export const READER_TARGETS: FuzzTarget[] = [v2Answers, sseStream, serviceAnswers, patterns];
