/**
 * A sweep record read back from IndexedDB, checked field by field into a typed value: storage is
 * input this code did not write this session (an older app, another tab, a person with devtools), so
 * a record that is not a sweep becomes an error that says which field is wrong, never a value typed
 * by a cast. The one place sweep records are trusted.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { JsonObject } from '../../core/protocol/json';
import {
	SWEEP_SCHEMA_VERSION,
	type AxisValue,
	type CellStatus,
	type CellNoPoster,
	type CellThumbnail,
	type ModelSweepTarget,
	type SweepAxis,
	type SweepCell,
	type SweepRecord,
	type SweepStatus
} from '../protocol/sweep';

const CELL_STATUSES: ReadonlySet<string> = new Set<CellStatus>([
	'pending',
	'sending',
	'queued',
	'running',
	'succeeded',
	'failed',
	'cancelled',
	'interrupted',
	'lost',
	'skipped'
]);
const SWEEP_STATUSES: ReadonlySet<string> = new Set<SweepStatus>(['running', 'paused', 'finished', 'cancelled']);

/** Thrown inside this module only, with the path of the field that is wrong; `parseSweepRecord` turns it into a value. */
class Bad extends Error {}

type Fields = Record<string, unknown>;

function object(value: unknown, at: string): Fields {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Bad(`${at} is not an object`);
	return value as Fields;
}
function field(o: Fields, key: string): unknown {
	return Object.hasOwn(o, key) ? o[key] : undefined;
}
function text(value: unknown, at: string): string {
	if (typeof value !== 'string') throw new Bad(`${at} is not a text`);
	return value;
}
function count(value: unknown, at: string): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) throw new Bad(`${at} is not a number`);
	return value;
}
function flag(value: unknown, at: string): boolean {
	if (typeof value !== 'boolean') throw new Bad(`${at} is not true or false`);
	return value;
}
function list<T>(value: unknown, at: string, item: (v: unknown, at: string) => T): T[] {
	if (!Array.isArray(value)) throw new Bad(`${at} is not a list`);
	return value.map((v, i) => item(v, `${at}[${i}]`));
}
function textOrNull(value: unknown, at: string): string | null {
	return value === null ? null : text(value, at);
}
function axisValue(value: unknown, at: string): AxisValue {
	if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
	throw new Bad(`${at} is not a text, number or true/false`);
}
function oneOf<T extends string>(value: unknown, at: string, allowed: ReadonlySet<string>): T {
	if (typeof value !== 'string' || !allowed.has(value)) throw new Bad(`${at} is not one of ${[...allowed].join(', ')}`);
	return value as T;
}

function axis(value: unknown, at: string): SweepAxis {
	const o = object(value, at);
	return {
		fieldId: text(field(o, 'fieldId'), `${at}.fieldId`),
		path: list(field(o, 'path'), `${at}.path`, (v, p) => (typeof v === 'number' ? count(v, p) : text(v, p))),
		label: text(field(o, 'label'), `${at}.label`),
		seed: flag(field(o, 'seed'), `${at}.seed`),
		values: list(field(o, 'values'), `${at}.values`, axisValue),
		pairedWithPrevious: flag(field(o, 'pairedWithPrevious'), `${at}.pairedWithPrevious`)
	};
}

function cell(value: unknown, at: string): SweepCell {
	const o = object(value, at);
	return {
		index: count(field(o, 'index'), `${at}.index`),
		place: list(field(o, 'place'), `${at}.place`, count),
		values: list(field(o, 'values'), `${at}.values`, axisValue),
		status: oneOf<CellStatus>(field(o, 'status'), `${at}.status`, CELL_STATUSES),
		runId: textOrNull(field(o, 'runId'), `${at}.runId`),
		promptId: textOrNull(field(o, 'promptId'), `${at}.promptId`),
		attempts: count(field(o, 'attempts'), `${at}.attempts`)
	};
}

function model(value: unknown, at: string): ModelSweepTarget {
	const o = object(value, at);
	const bodies = object(field(o, 'bodies'), `${at}.bodies`);
	for (const [id, body] of Object.entries(bodies)) object(body, `${at}.bodies.${id}`);
	return { modelId: text(field(o, 'modelId'), `${at}.modelId`), bodies: bodies as Record<string, JsonObject> };
}

/** A workflow in API format: each node an object with its kind and its inputs (their values are the server's to judge). */
function prompt(value: unknown, at: string): ApiPrompt {
	const nodes = object(value, at);
	for (const [id, node] of Object.entries(nodes)) {
		const n = object(node, `${at}.${id}`);
		text(field(n, 'class_type'), `${at}.${id}.class_type`);
		object(field(n, 'inputs'), `${at}.${id}.inputs`);
	}
	return nodes as ApiPrompt;
}

function seeds(value: unknown, at: string): Record<string, number> {
	// Keys are a workflow's field ids: no prototype for a key like `__proto__` to reach.
	const out: Record<string, number> = Object.create(null);
	for (const [key, seed] of Object.entries(object(value, at))) out[key] = count(seed, `${at}.${key}`);
	return out;
}

/** A stored record as a sweep, or an error naming the first field that is wrong. */
export function parseSweepRecord(value: unknown): Result<SweepRecord> {
	try {
		const o = object(value, 'the record');
		const version = field(o, 'schemaVersion');
		if (version !== SWEEP_SCHEMA_VERSION) throw new Bad(`its schema version is ${String(version)}, not ${SWEEP_SCHEMA_VERSION}`);
		const axes = list(field(o, 'axes'), 'axes', axis);
		const cells = list(field(o, 'cells'), 'cells', cell);
		cells.forEach((c, i) => {
			if (c.index !== i) throw new Bad(`cells[${i}].index is ${c.index}`);
			if (c.values.length !== axes.length) throw new Bad(`cells[${i}] has ${c.values.length} values for ${axes.length} axes`);
		});
		const window = count(field(o, 'window'), 'window');
		if (window < 1) throw new Bad('window is less than 1');
		const workflowId = field(o, 'workflowId');
		const record: SweepRecord = {
			schemaVersion: SWEEP_SCHEMA_VERSION,
			id: text(field(o, 'id'), 'id'),
			profileId: text(field(o, 'profileId'), 'profileId'),
			workflowId: workflowId === undefined ? null : textOrNull(workflowId, 'workflowId'),
			title: text(field(o, 'title'), 'title'),
			base: prompt(field(o, 'base'), 'base'),
			seeds: seeds(field(o, 'seeds'), 'seeds'),
			axes,
			cells,
			status: oneOf<SweepStatus>(field(o, 'status'), 'status', SWEEP_STATUSES),
			createdAt: count(field(o, 'createdAt'), 'createdAt'),
			window
		};
		const [target, poolId, finishedAt, waitUntil, lastProblem, shownSource] = [
			'model',
			'poolId',
			'finishedAt',
			'waitUntil',
			'lastProblem',
			'shownSource'
		].map((k) => field(o, k));
		if (target !== undefined) record.model = model(target, 'model');
		if (poolId !== undefined) record.poolId = text(poolId, 'poolId');
		if (finishedAt !== undefined) record.finishedAt = count(finishedAt, 'finishedAt');
		if (waitUntil !== undefined) record.waitUntil = count(waitUntil, 'waitUntil');
		if (lastProblem !== undefined) record.lastProblem = text(lastProblem, 'lastProblem');
		// Records from before the grid's choice was saved have none: each run's first output.
		if (shownSource !== undefined) record.shownSource = text(shownSource, 'shownSource');
		return ok(record);
	} catch (error) {
		if (!(error instanceof Bad)) throw error;
		return fail(appError('bad-response', `A stored sweep could not be read: ${error.message}.`));
	}
}

/**
 * A stored cell thumbnail or poster, or the note that a video has no poster; null when what is
 * stored is neither (it is then made again).
 */
export function parseCellThumbnail(value: unknown): CellThumbnail | CellNoPoster | null {
	if (typeof value !== 'object' || value === null) return null;
	const o = value as Fields;
	const [runId, output, picture, poster, noPoster] = ['runId', 'output', 'picture', 'poster', 'noPoster'].map((k) => field(o, k));
	if (typeof runId !== 'string' || typeof output !== 'number' || !Number.isInteger(output) || output < 0) return null;
	if (typeof noPoster === 'string' && picture === undefined) return { runId, output, noPoster };
	if (!(picture instanceof Blob)) return null;
	return poster === true ? { runId, output, picture, poster } : { runId, output, picture };
}
