/**
 * The import rules (`.dependency-cruiser.cjs`, run by `npm run check`) catch a planted wrong
 * import: each case writes a small tree into a temporary folder, cruises it with the repository's
 * own rule file, and names the rule that must fail (or none, for imports the rules allow).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;
const made: string[] = [];

/** The rules broken by a tree of files (path → source), as `rule: from → to`, sorted. */
async function brokenRules(files: Record<string, string>): Promise<string[]> {
	const root = mkdtempSync(join(tmpdir(), 'import-rules-'));
	made.push(root);
	for (const [path, source] of Object.entries(files)) {
		mkdirSync(join(root, dirname(path)), { recursive: true });
		writeFileSync(join(root, path), source);
	}
	const { webpackConfig: _alias, ...options } = rules.options ?? {};
	const result = await cruise(['src'], { ...options, baseDir: root, validate: true, ruleSet: { forbidden: rules.forbidden } });
	const { summary } = result.output as ICruiseResult;
	return summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

afterAll(() => made.forEach((root) => rmSync(root, { recursive: true, force: true })));

const EXPORT = 'export const x = 1;\n';

describe('the import rules', () => {
	it('let a feature import core, the shared fields, its own earlier kinds and another feature’s index.ts', async () => {
		expect(
			await brokenRules({
				'src/lib/core/protocol/json.ts': EXPORT,
				'src/lib/fields/rules/field-model.ts': "import { x } from '../../core/protocol/json';\nexport const y = x;\n",
				'src/lib/workflows/protocol/api.ts': EXPORT,
				'src/lib/workflows/index.ts': "export { x } from './protocol/api';\n",
				'src/lib/models/rules/run.ts':
					"import { x } from '../../workflows';\nimport { y } from '../../fields/rules/field-model';\nexport const z = x + y;\n",
				'src/lib/models/state/store.ts': "import { z } from '../rules/run';\nexport const s = z;\n"
			})
		).toEqual([]);
	});

	it('fail core importing a feature', async () => {
		expect(
			await brokenRules({
				'src/lib/models/protocol/router-api.ts': EXPORT,
				'src/lib/core/rules/http-response.ts': "import { x } from '../../models/protocol/router-api';\nexport const y = x;\n"
			})
		).toEqual(['core-imports-no-feature: src/lib/core/rules/http-response.ts → src/lib/models/protocol/router-api.ts']);
	});

	it('fail a feature reaching past another feature’s index.ts', async () => {
		expect(
			await brokenRules({
				'src/lib/models/rules/model-run.ts': EXPORT,
				'src/lib/timeline/rules/timeline.ts': "import type { x } from '../../models/rules/model-run';\nexport type Y = typeof x;\n"
			})
		).toEqual(['feature-imports-only-public-of-another: src/lib/timeline/rules/timeline.ts → src/lib/models/rules/model-run.ts']);
	});

	it('fail an import against the kinds’ direction (protocol → rules → worker or state → ui)', async () => {
		expect(
			await brokenRules({
				'src/lib/models/rules/pure.ts': EXPORT,
				'src/lib/models/protocol/api.ts': "import { x } from '../rules/pure';\nexport const y = x;\n",
				'src/lib/models/worker/service.ts': EXPORT,
				'src/lib/models/state/store.ts': "import { x } from '../worker/service';\nexport const z = x;\n"
			})
		).toEqual([
			'protocol-imports-no-rules-or-worker-or-state-or-ui: src/lib/models/protocol/api.ts → src/lib/models/rules/pure.ts',
			'state-imports-no-worker-or-ui: src/lib/models/state/store.ts → src/lib/models/worker/service.ts'
		]);
	});

	it('fail a circle made with a type-only import', async () => {
		const broken = await brokenRules({
			'src/lib/core/worker/a.ts': "import { b } from './b';\nexport const a = b;\n",
			'src/lib/core/worker/b.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n"
		});
		expect(broken).toContain('no-circular: src/lib/core/worker/a.ts → src/lib/core/worker/b.ts');
	});

	it('fail a route importing rules, and a page importing the bridge', async () => {
		expect(
			await brokenRules({
				'src/lib/models/rules/model-copy.ts': EXPORT,
				'src/lib/core/state/worker-bridge.svelte.ts': EXPORT,
				'src/routes/models/+page.ts':
					"import { x } from '../../lib/models/rules/model-copy';\nimport { x as y } from '../../lib/core/state/worker-bridge.svelte';\nexport const z = x + y;\n"
			})
		).toEqual([
			'only-the-layout-imports-the-shell: src/routes/models/+page.ts → src/lib/core/state/worker-bridge.svelte.ts',
			'routes-import-state-and-ui: src/routes/models/+page.ts → src/lib/models/rules/model-copy.ts'
		]);
	});
});
