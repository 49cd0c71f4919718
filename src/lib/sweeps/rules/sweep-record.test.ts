import { describe, expect, it } from 'vitest';
import { SWEEP_SCHEMA_VERSION, type SweepRecord } from '../protocol/sweep';
import { parseCellThumbnail, parseSweepRecord } from './sweep-record';

function good(): SweepRecord {
	return {
		schemaVersion: SWEEP_SCHEMA_VERSION,
		id: 'sw-1',
		profileId: 'demo',
		workflowId: 'wf-1',
		title: 'Text to image',
		base: { '3': { class_type: 'KSampler', inputs: { seed: 1, cfg: 7 } } },
		seeds: { '3.noise_seed': 42 },
		axes: [{ fieldId: '3.seed', path: ['3', 'seed'], label: 'KSampler · seed', seed: true, values: [1, 2], pairedWithPrevious: false }],
		cells: [
			{ index: 0, place: [0], values: [1], status: 'succeeded', runId: 'r0', promptId: 'p0', attempts: 1 },
			{ index: 1, place: [1], values: [2], status: 'pending', runId: null, promptId: null, attempts: 0 }
		],
		status: 'running',
		createdAt: 1_700_000_000_000,
		window: 4
	};
}

/** The good record with one change: a field set (or removed, with `undefined`) at a path. */
function withChange(path: Array<string | number>, value: unknown): unknown {
	const record = structuredClone(good()) as unknown as Record<string | number, unknown>;
	let at: Record<string | number, unknown> = record;
	for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
	const last = path.at(-1)!;
	if (value === undefined) delete at[last];
	else at[last] = value;
	return record;
}

describe('a stored sweep record', () => {
	it('reads back as the sweep it was', () => {
		expect(parseSweepRecord(structuredClone(good()))).toEqual({ ok: true, value: good() });
	});

	it('keeps what is optional when it is there: the model sweep, the pool, the wait, the last refusal, the output shown', () => {
		const record = {
			...good(),
			workflowId: null,
			base: {},
			model: { modelId: 'lumen/flux-1', bodies: { 'lumen/flux-1': { prompt: 'a boat' } } },
			poolId: 'pool-1',
			finishedAt: 5,
			waitUntil: 6,
			lastProblem: 'busy',
			shownSource: 'images'
		};
		expect(parseSweepRecord(structuredClone(record))).toEqual({ ok: true, value: record });
	});

	it.each<[string, unknown, string]>([
		['not an object', 'sweep:1', 'the record is not an object'],
		['null', null, 'the record is not an object'],
		['a list', [], 'the record is not an object'],
		['an older schema version', withChange(['schemaVersion'], 0), 'its schema version is 0'],
		['no schema version', withChange(['schemaVersion'], undefined), 'its schema version is undefined'],
		['an id that is a number', withChange(['id'], 7), 'id is not a text'],
		['no title', withChange(['title'], undefined), 'title is not a text'],
		['a workflow id that is not a text', withChange(['workflowId'], {}), 'workflowId is not a text'],
		['a base node with no kind', withChange(['base', '3', 'class_type'], undefined), 'base.3.class_type is not a text'],
		['a base node whose inputs are a list', withChange(['base', '3', 'inputs'], []), 'base.3.inputs is not an object'],
		['a frozen seed that is a text', withChange(['seeds', '3.noise_seed'], '42'), 'seeds.3.noise_seed is not a number'],
		['axes that are not a list', withChange(['axes'], {}), 'axes is not a list'],
		[
			'an axis value that is an object',
			withChange(['axes', 0, 'values', 1], { x: 1 }),
			'axes[0].values[1] is not a text, number or true/false'
		],
		['an axis path step that is null', withChange(['axes', 0, 'path', 0], null), 'axes[0].path[0] is not a text'],
		[
			'an axis with no pairing flag',
			withChange(['axes', 0, 'pairedWithPrevious'], undefined),
			'axes[0].pairedWithPrevious is not true or false'
		],
		['a cell status nobody knows', withChange(['cells', 1, 'status'], 'exploded'), 'cells[1].status is not one of'],
		['a cell out of place', withChange(['cells', 1, 'index'], 5), 'cells[1].index is 5'],
		['a cell with a value too few', withChange(['cells', 0, 'values'], []), 'cells[0] has 0 values for 1 axes'],
		['a cell run id that is a number', withChange(['cells', 0, 'runId'], 3), 'cells[0].runId is not a text'],
		['attempts that are not a number', withChange(['cells', 0, 'attempts'], Number.NaN), 'cells[0].attempts is not a number'],
		['a sweep status nobody knows', withChange(['status'], 'done'), 'status is not one of'],
		['a window of 0', withChange(['window'], 0), 'window is less than 1'],
		[
			'a model sweep whose bodies are not objects',
			withChange(['model'], { modelId: 'm', bodies: { m: 'x' } }),
			'model.bodies.m is not an object'
		],
		['a pool id that is a number', withChange(['poolId'], 1), 'poolId is not a text'],
		['a last refusal that is an object', withChange(['lastProblem'], {}), 'lastProblem is not a text'],
		['an output shown that is a number', withChange(['shownSource'], 9), 'shownSource is not a text']
	])('refuses %s, saying which field', (_name, stored, words) => {
		const parsed = parseSweepRecord(stored);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) {
			expect(parsed.error.kind).toBe('bad-response');
			expect(parsed.error.message).toContain(words);
		}
	});

	it("reads a record from before the output shown was saved as showing each run's first", () => {
		const parsed = parseSweepRecord(structuredClone(good()));
		expect(parsed.ok && 'shownSource' in parsed.value).toBe(false);
	});

	it('gives frozen seeds no prototype for a key like __proto__ to reach', () => {
		const parsed = parseSweepRecord(withChange(['seeds'], JSON.parse('{"__proto__": 5}')));
		expect(parsed.ok && Object.getPrototypeOf(parsed.value.seeds)).toBe(null);
		expect(parsed.ok && parsed.value.seeds['__proto__']).toBe(5);
	});
});

describe('a stored cell thumbnail', () => {
	const picture = new Blob([new Uint8Array(10)], { type: 'image/webp' });
	it.each<[string, unknown, boolean]>([
		['a thumbnail', { runId: 'r1', output: 2, picture }, true],
		['one without its picture', { runId: 'r1', output: 0 }, false],
		['one whose picture is bytes, not a Blob', { runId: 'r1', output: 0, picture: new Uint8Array(3) }, false],
		['one whose output is not a whole number', { runId: 'r1', output: 0.5, picture }, false],
		['one whose output is below 0', { runId: 'r1', output: -1, picture }, false],
		['one whose run id is a number', { runId: 1, output: 0, picture }, false],
		['null', null, false],
		['a poster', { runId: 'r1', output: 0, picture, poster: true }, true],
		['the note that a video has no poster', { runId: 'r1', output: 0, noPoster: 'Its codec is not read here.' }, true],
		['a note whose words are not text', { runId: 'r1', output: 0, noPoster: 3 }, false]
	])('reads %s: %s', (_name, stored, readable) => {
		expect(parseCellThumbnail(stored) !== null).toBe(readable);
	});

	it.each<[string, unknown, unknown]>([
		['a poster says it is one', { runId: 'r1', output: 0, picture, poster: true }, { runId: 'r1', output: 0, picture, poster: true }],
		[
			'a thumbnail is not a poster, whatever else it carries',
			{ runId: 'r1', output: 0, picture, poster: 'yes' },
			{ runId: 'r1', output: 0, picture }
		],
		['a note keeps its words', { runId: 'r1', output: 3, noPoster: 'why' }, { runId: 'r1', output: 3, noPoster: 'why' }]
	])('%s', (_name, stored, read) => {
		expect(parseCellThumbnail(stored)).toEqual(read);
	});
});
