/**
 * A run bundle's manifest (`runboard-bundle.json`): what the run was and where each file sits in
 * the zip, with its BLAKE3 hash. Parsed from untrusted JSON into typed values in this one place;
 * anything missing or of the wrong type is refused with what was wrong.
 */
import { arr, isObject, num, obj, own, str, type Json, type JsonObject } from '../../../core/protocol/json';
import type { OutputKind, RunStatus } from '../../../core/protocol/workflow-run';
import { refuse, accept, type Read } from './refusal';
import type { BundleFile, BundleInput, BundleManifest, BundleOutput } from '../../protocol/bundle';

export const BUNDLE_FORMAT = 'runboard-run-bundle' satisfies BundleManifest['format'];
export const BUNDLE_VERSION = 1 satisfies BundleManifest['version'];
export const MANIFEST_PATH = 'runboard-bundle.json';
export const API_PATH = 'workflow/api.json';
export const UI_PATH = 'workflow/ui.json';
export const INPUTS_DIR = 'inputs/';
export const OUTPUTS_DIR = 'outputs/';

export type { BundleFile, BundleInput, BundleManifest, BundleOutput } from '../../protocol/bundle';

const STATUSES: readonly RunStatus[] = ['submitting', 'queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted', 'lost'];
const KINDS: readonly OutputKind[] = ['image', 'video', 'audio', 'file'];
const HASH = /^[0-9a-f]{64}$/;
const SHORT = 400;

function text(o: JsonObject, key: string, max = SHORT): string | undefined {
	const v = str(o, key);
	return v !== undefined && v.length <= max ? v : undefined;
}

function file(v: Json, dir: string, what: string): Read<BundleFile & { o: JsonObject }> {
	if (!isObject(v)) return refuse('format', `The manifest lists ${what} that is not an object.`);
	const path = text(v, 'path');
	const blake3 = text(v, 'blake3');
	const bytes = num(v, 'bytes');
	if (!path || !path.startsWith(dir) || path.length === dir.length) return refuse('format', `The manifest lists ${what} outside ${dir}.`);
	if (!blake3 || !HASH.test(blake3)) return refuse('format', `The manifest gives ${what} (${path}) no BLAKE3 hash.`);
	if (bytes === undefined || !Number.isSafeInteger(bytes) || bytes < 0)
		return refuse('format', `The manifest gives ${what} (${path}) no size.`);
	return accept({ path, blake3, bytes, type: text(v, 'type', 120) ?? 'application/octet-stream', o: v });
}

function numbers(o: JsonObject | undefined): Record<string, number> {
	const out = Object.create(null) as Record<string, number>;
	if (!o) return out;
	for (const [k, v] of Object.entries(o))
		if (typeof v === 'number' && Number.isFinite(v))
			Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
	return out;
}

/** The manifest's typed value, or why it is not one. */
export function parseManifest(value: Json): Read<BundleManifest> {
	if (!isObject(value) || str(value, 'format') !== BUNDLE_FORMAT)
		return refuse('not-a-bundle', 'This zip is not a Runboard run bundle: its manifest is missing or of another kind.');
	const version = own(value, 'version');
	if (version !== BUNDLE_VERSION)
		return refuse('version', `This bundle is version ${String(version).slice(0, 12)}; this Runboard reads version ${BUNDLE_VERSION}.`);
	const status = str(value, 'status');
	const times = obj(value, 'times');
	const created = times ? num(times, 'created') : undefined;
	if (!status || !(STATUSES as readonly string[]).includes(status)) return refuse('format', 'The manifest gives the run no known status.');
	if (!times || created === undefined) return refuse('format', 'The manifest gives the run no time it was made.');
	const inputs: BundleInput[] = [];
	for (const v of arr(value, 'inputs') ?? []) {
		const f = file(v, INPUTS_DIR, 'an input file');
		if (!f.ok) return f;
		const nodeId = text(f.value.o, 'nodeId');
		const input = text(f.value.o, 'input');
		const name = text(f.value.o, 'name');
		if (!nodeId || !input || !name) return refuse('format', `The manifest does not say which node loads ${f.value.path}.`);
		const { o: _o, ...rest } = f.value;
		inputs.push({ ...rest, nodeId, input, name });
	}
	const outputs: BundleOutput[] = [];
	for (const v of arr(value, 'outputs') ?? []) {
		const f = file(v, OUTPUTS_DIR, 'an output file');
		if (!f.ok) return f;
		const kind = str(f.value.o, 'kind');
		const nodeId = text(f.value.o, 'nodeId') ?? '';
		const { o: _o, ...rest } = f.value;
		outputs.push({
			...rest,
			nodeId,
			kind: kind && (KINDS as readonly string[]).includes(kind) ? (kind as OutputKind) : 'file',
			name: text(f.value.o, 'name') ?? rest.path.slice(OUTPUTS_DIR.length)
		});
	}
	const paths = [...inputs, ...outputs].map((f) => f.path);
	if (new Set(paths).size !== paths.length) return refuse('format', 'The manifest lists one file twice.');
	const server = obj(value, 'server');
	const spend = obj(value, 'spend');
	const spendAmount = spend ? num(spend, 'amount') : undefined;
	const texts: BundleManifest['texts'] = [];
	for (const t of arr(value, 'texts') ?? []) {
		if (!isObject(t)) continue;
		const body = str(t, 'text');
		if (body === undefined) continue;
		const name = text(t, 'name');
		texts.push({ nodeId: text(t, 'nodeId') ?? '', text: body.slice(0, 100_000), ...(name ? { name } : {}) });
	}
	const time = (key: string) => (num(times, key) !== undefined ? { [key]: num(times, key)! } : {});
	return accept({
		format: BUNDLE_FORMAT,
		version: BUNDLE_VERSION,
		title: (str(value, 'title') ?? 'Run from a bundle').slice(0, 200) || 'Run from a bundle',
		status: status as RunStatus,
		exportedAt: num(value, 'exportedAt') ?? created,
		times: { created, ...time('queued'), ...time('started'), ...time('finished') },
		seeds: numbers(obj(value, 'seeds')),
		server: {
			surface: server ? (text(server, 'surface', 40) ?? null) : null,
			version: server ? (text(server, 'version', 80) ?? null) : null
		},
		spend: spend && spendAmount !== undefined ? { amount: spendAmount, currency: text(spend, 'currency', 12) ?? '' } : null,
		hasUi: own(value, 'hasUi') === true,
		inputs,
		outputs,
		texts,
		leftOut: (arr(value, 'leftOut') ?? [])
			.filter((x): x is string => typeof x === 'string')
			.map((x) => x.slice(0, SHORT))
			.slice(0, 100)
	});
}
