// The import rules of docs/decisions/0001-feature-folders.md (the choice of tool: 0002-import-rules.md), checked by `npm run check` (`npm run imports`).
// Folders under src/lib: `core` and the shared `fields` and `workbench`, and one folder per feature.
// Inside each, kinds in one direction: protocol → rules → worker or state → ui.
// Imports that broke a rule when the rules came are listed in .dependency-cruiser-known-violations.json
// and pass until they are mended (then `npm run imports:baseline` shortens the list); any other fails.
const FEATURES = '(workflows|models|timeline|history|storage|settings|sweeps|pools)';
const SHARED = '(core|fields|workbench)';
const TESTS = ['\\.test\\.ts$', '\\.fixture\\.ts$', '/testing/'];
/** Files whose job is to put the features together: the worker's assembly (app-worker/) and the one API and event union. */
const COMPOSITION = ['^src/lib/app-worker/', '^src/lib/core/protocol/worker-api\\.ts$'];
/** The page starts the worker from its entry's URL (`?worker`): a bundle of its own, not an import of its code. */
const WORKER_ENTRY = '^src/lib/app-worker/index\\.ts$';

const kind = (k) => `^src/lib/[^/]+/${k}/`;
/** A file of one kind imports nothing of a later kind, in its own folder or any other. */
const layer = (from, later, why) => ({
	name: `${from}-imports-no-${later.join('-or-')}`,
	comment: why,
	severity: 'error',
	from: { path: kind(from), pathNot: TESTS },
	to: { path: `^src/lib/[^/]+/(${later.join('|')})/` }
});

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			comment:
				'No import circle anywhere in src/ and emulator/, type-only imports counted: move the shared declarations to where both sides import them.',
			severity: 'error',
			from: {},
			to: { circular: true }
		},
		layer('protocol', ['rules', 'worker', 'state', 'ui'], 'protocol/ holds wire types and codecs: it imports only protocol.'),
		layer('rules', ['worker', 'state', 'ui'], 'rules/ is pure logic: it imports protocol and rules, never I/O, stores or components.'),
		layer('worker', ['state', 'ui'], 'worker/ runs in the Web Worker: no rune stores or components there.'),
		{
			...layer(
				'state',
				['worker', 'ui'],
				'state/ is page-side: it reaches the worker through the bridge (core/state/worker-bridge) and its protocol, never its code.'
			),
			to: { path: '^src/lib/[^/]+/(worker|ui)/', pathNot: WORKER_ENTRY }
		},
		{
			name: 'ui-imports-no-worker',
			comment: 'Components run on the page: they reach the worker through a store and the bridge.',
			severity: 'error',
			from: { path: kind('ui'), pathNot: TESTS },
			to: { path: kind('worker') }
		},
		{
			name: 'core-imports-no-feature',
			comment:
				'core is what every feature needs, so it imports no feature and no shared folder (the worker entry and the API union, which put the features together, aside).',
			severity: 'error',
			from: { path: '^src/lib/core/', pathNot: [...TESTS, ...COMPOSITION] },
			to: { path: '^src/lib/', pathNot: ['^src/lib/core/', WORKER_ENTRY] }
		},
		{
			name: 'composition-imports-public-or-worker',
			comment: "The worker's entry builds each feature's worker; the API union names each feature's public types (its index.ts).",
			severity: 'error',
			from: { path: COMPOSITION },
			to: { path: `^src/lib/${FEATURES}/`, pathNot: [`^src/lib/${FEATURES}/index\\.ts$`, `^src/lib/${FEATURES}/worker/`] }
		},
		{
			name: 'fields-import-only-core',
			comment: 'The shared field components serve every form: they import core only.',
			severity: 'error',
			from: { path: '^src/lib/fields/', pathNot: TESTS },
			to: { path: '^src/lib/', pathNot: ['^src/lib/(core|fields)/'] }
		},
		{
			name: 'feature-imports-only-public-of-another',
			comment: 'Another feature is reached through its index.ts (its public protocol types) only; what two features share belongs in core.',
			severity: 'error',
			from: { path: `^src/lib/(${FEATURES.slice(1, -1)}|workbench)/`, pathNot: TESTS },
			to: {
				path: '^src/lib/[^/]+/',
				pathNot: ['^src/lib/$1/', `^src/lib/${SHARED}/`, `^src/lib/${FEATURES}/index\\.ts$`]
			}
		},
		{
			name: 'routes-import-state-and-ui',
			comment: "A route imports a feature's state and ui (and the protocol types its values have); logic belongs in a page store.",
			severity: 'error',
			from: { path: '^src/routes/' },
			to: { path: '^src/lib/[^/]+/(rules|worker)/' }
		},
		{
			name: 'only-the-layout-imports-the-shell',
			comment: "The bridge and the app shell's pieces are the root layout's; a page asks a store.",
			severity: 'error',
			from: { path: '^src/routes/', pathNot: '^src/routes/\\+layout\\.svelte$' },
			to: { path: ['^src/lib/core/state/worker-bridge\\.svelte\\.ts$', '^src/lib/core/ui/(NavBar|ConnectionBadge|PwaBanner)\\.svelte$'] }
		},
		{
			name: 'lib-imports-no-route',
			severity: 'error',
			from: { path: '^src/lib/' },
			to: { path: '^src/routes/' }
		},
		{
			name: 'app-imports-no-node-side',
			comment: 'The app imports nothing of the emulator, scripts, benchmarks or e2e tests (fixtures aside).',
			severity: 'error',
			from: { path: '^src/', pathNot: TESTS },
			to: { path: '^(emulator|scripts|bench|tests)/' }
		}
	],
	options: {
		doNotFollow: { path: ['node_modules'] },
		exclude: { path: ['^src/.*\\.d\\.ts$', '\\.svelte-kit/'] },
		// Type-only imports count: a circle of types is a circle of meaning.
		tsPreCompilationDeps: true,
		// `$lib` as SvelteKit resolves it.
		webpackConfig: { fileName: 'scripts/imports/resolve.cjs' },
		enhancedResolveOptions: {
			exportsFields: ['exports'],
			conditionNames: ['import', 'require', 'node', 'default', 'types', 'svelte'],
			extensions: ['.ts', '.js', '.svelte', '.json']
		},
		reporterOptions: { text: { highlightFocused: true } }
	}
};
