/**
 * Fuzz targets for what strangers hand over: run bundles (a real bundle with its bytes mutated,
 * and zips of hostile entry names, manifests and workflows) and share links (real links mutated,
 * hostile JSON deflated into a fragment, and any text at all).
 */
import fc from 'fast-check';
import { deflateSync, zipSync } from 'fflate';
import { readBundle } from '../../src/lib/workflows/rules/bundle/bundle-read';
import { bundleSource, hashBytes, writtenBytes } from '../../src/lib/workflows/rules/bundle/bundle.fixture';
import { BUNDLE_LIMITS } from '../../src/lib/workflows/rules/bundle/limits';
import { LINK_KEY, makeShareLink, readShareLink } from '../../src/lib/workflows/rules/bundle/share-link';
import { mutate, mutation } from '../../src/lib/workflows/protocol/files/file-mutations.fixture';
import { jsonText, jsonValue, stackOverflowText } from './arbitraries';
import type { FuzzTarget } from './targets';

/** A real bundle, made once when the target first runs (not when the registry is imported by every worker). */
let realBundle: Promise<Uint8Array> | undefined;
const REAL_BUNDLE = () => (realBundle ??= writtenBytes(bundleSource()).then((made) => made.bytes));
/** Small limits, so a bomb among the inputs is caught as quickly as a real one would be. */
const LIMITS = { ...BUNDLE_LIMITS, entryBytes: 256 * 1024, totalBytes: 512 * 1024, jsonBytes: 64 * 1024 };
const utf8 = new TextEncoder();

const MANIFEST_KEYS = [
	'format',
	'version',
	'status',
	'times',
	'created',
	'inputs',
	'outputs',
	'path',
	'blake3',
	'bytes',
	'nodeId',
	'input',
	'name',
	'hasUi',
	'seeds',
	'server',
	'spend',
	'texts'
];
const entryName = fc.oneof(
	fc.constantFrom('runboard-bundle.json', 'workflow/api.json', 'workflow/ui.json', 'inputs/a.png', 'outputs/b.png'),
	fc.constantFrom('../x', '/etc/passwd', 'inputs/../../x', 'C:\\x', 'a//b', './a', 'inputs/', '__proto__', 'inputs/\u0000'),
	fc.string({ maxLength: 20 })
);
const manifest = fc
	.record({
		format: fc.constant('runboard-run-bundle'),
		version: fc.constant(1),
		status: fc.constant('succeeded'),
		times: fc.constant({ created: 1 }),
		rest: jsonValue(MANIFEST_KEYS, 3)
	})
	.map(({ rest, ...m }) => (typeof rest === 'object' && rest !== null && !Array.isArray(rest) ? { ...m, ...rest } : m));
const hostileZip = fc
	.tuple(
		jsonText(fc.oneof(manifest, jsonValue(MANIFEST_KEYS))),
		jsonText(jsonValue(['class_type', 'inputs', '1'])),
		fc.dictionary(entryName, fc.uint8Array({ maxLength: 64 }), { maxKeys: 4, noNullPrototype: true })
	)
	.map(([m, api, rest]) => {
		try {
			// Stored, not deflated: making the input must cost little beside reading it.
			return zipSync({ ...rest, 'runboard-bundle.json': utf8.encode(m), 'workflow/api.json': utf8.encode(api) }, { level: 0 });
		} catch {
			return new Uint8Array(0);
		}
	});
/** 1 MiB of zeros deflated into a few KiB, made once: every bundle bomb starts from it. */
const BOMB = zipSync({ 'outputs/zeros.bin': new Uint8Array(1024 * 1024) }, { level: 9 });

const bundles: FuzzTarget = {
	name: 'run bundles',
	async: true,
	arbitrary: fc.oneof(
		{ weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 6 }).map((edits) => ({ edits })) },
		{ weight: 2, arbitrary: hostileZip },
		{ weight: 1, arbitrary: fc.array(mutation, { maxLength: 3 }).map((edits) => mutate(BOMB, edits)) },
		{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) }
	),
	// `{edits}`: changes to the real bundle, applied once it is made.
	parse: async (input) => {
		const bytes =
			input instanceof Uint8Array ? input : mutate(await REAL_BUNDLE(), (input as { edits: Parameters<typeof mutate>[1] }).edits);
		return readBundle(bytes, hashBytes, LIMITS);
	},
	regressions: [{ edits: [] }, new Uint8Array(0), utf8.encode('PK\u0005\u0006')]
};

const b64 = (bytes: Uint8Array) =>
	btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '');
const REAL_LINK = (() => {
	const made = makeShareLink('https://runboard.example', { name: 'w', prompt: bundleSource().prompt, ui: { nodes: [], links: [] } });
	return made.ok ? new URL(made.url).hash : '';
})();
const links: FuzzTarget = {
	name: 'share links',
	arbitrary: fc.oneof(
		{
			weight: 3,
			arbitrary: jsonText(jsonValue(['n', 'p', 'u', 'class_type', 'inputs'])).map((t) => `#${LINK_KEY}=${b64(deflateSync(utf8.encode(t)))}`)
		},
		{
			weight: 2,
			arbitrary: fc.tuple(fc.nat(REAL_LINK.length), fc.string({ maxLength: 4 })).map(([cut, tail]) => REAL_LINK.slice(0, cut) + tail)
		},
		{ weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => `#${LINK_KEY}=${s}`) },
		{ weight: 1, arbitrary: fc.string({ maxLength: 60 }) }
	),
	parse: (fragment) => readShareLink(fragment as string),
	regressions: [REAL_LINK, `#${LINK_KEY}=${b64(deflateSync(utf8.encode(stackOverflowText(20_000, '{"p":'))))}`, `#${LINK_KEY}=`]
};

export const SHARE_TARGETS: FuzzTarget[] = [bundles, links];
