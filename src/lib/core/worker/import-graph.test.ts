/**
 * The worker's modules import one another without a circle: a feature may import the context and
 * the shared types, never the worker's entry (`runboard-worker.ts`, `index.ts`) or a module that
 * leads back to itself. Type-only imports count too: a circle of types is a circle of meaning.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.fixture.ts') ? [path] : [];
	});
}

/** Relative imports of one module that stay inside `root`, as absolute paths. */
function importsOf(file: string, root: string): string[] {
	const targets: string[] = [];
	for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
		const base = resolve(dirname(file), match[1]!.replace(/\.ts$/, ''));
		const target = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
		if (target?.startsWith(root + '/')) targets.push(target);
	}
	return targets;
}

/** Every circle found by a depth-first walk, each written as `a.ts -> b.ts -> a.ts`. */
function importCircles(root: string): string[] {
	const graph = new Map(sourceFiles(root).map((f) => [f, importsOf(f, root)]));
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const circles: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].map((p) => relative(root, p)).join(' -> '));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of graph.keys()) if (!state.has(file)) visit(file);
	return circles;
}

describe('the import walk', () => {
	it('finds a circle, type-only imports included', () => {
		const dir = mkdtempSync(join(tmpdir(), 'import-circle-'));
		try {
			writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
			writeFileSync(join(dir, 'b.ts'), "import type { A } from './a';\nexport const b = 1;\n");
			writeFileSync(join(dir, 'c.ts'), "import { a } from './a';\n");
			expect(importCircles(dir)).toEqual(['a.ts -> b.ts -> a.ts']);
		} finally {
			rmSync(dir, { recursive: true });
		}
	});
});

describe('the imports of src/lib/worker', () => {
	it('form no circle', () => {
		expect(importCircles(ROOT)).toEqual([]);
	});

	it('never reach the worker entry from a feature', () => {
		const entries = new Set(['runboard-worker.ts', 'index.ts'].map((f) => join(ROOT, f)));
		const offenders = sourceFiles(ROOT)
			.filter((f) => !entries.has(f) && importsOf(f, ROOT).some((t) => entries.has(t)))
			.map((f) => relative(ROOT, f));
		expect(offenders).toEqual([]);
	});
});
