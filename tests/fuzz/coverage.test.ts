import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUZZED_READERS } from './coverage';
import { FUZZ_TARGETS } from './targets';

const ROOT = join(import.meta.dirname, '../..');
const EXPORTED_READER = /export\s+(?:async\s+)?function\s+((?:parse|read)[A-Z0-9]\w*)|export\s+const\s+((?:parse|read)[A-Z0-9]\w*)\s*=/g;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') && !/\.(test|fixture|test-util)\.ts$|\.d\.ts$/.test(entry.name) ? [path] : [];
	});
}

/** Every `protocol/` folder of every feature, at any depth below `src/lib/<feature>/`. */
function protocolFiles(): string[] {
	const lib = join(ROOT, 'src/lib');
	return readdirSync(lib, { withFileTypes: true })
		.filter((d) => d.isDirectory())
		.flatMap((feature) => {
			const protocol = join(lib, feature.name, 'protocol');
			try {
				return sourceFiles(protocol);
			} catch {
				return [];
			}
		});
}

const exportsOf = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('every reader of outside input has a fuzz target', () => {
	it('each exported parse*/read* function under a protocol/ folder is listed beside the targets', () => {
		const missing: string[] = [];
		for (const file of protocolFiles()) {
			const text = readFileSync(file, 'utf8');
			for (const match of text.matchAll(EXPORTED_READER)) {
				const key = `${relative(ROOT, file)}#${match[1] ?? match[2]}`;
				if (!Object.hasOwn(FUZZED_READERS, key)) missing.push(key);
			}
		}
		expect(missing, 'add each to tests/fuzz/coverage.ts with the target that reaches it (and write the target)').toEqual([]);
	});

	it('each listed reader is still exported by its module and names a target that exists', () => {
		const targets = new Set(FUZZ_TARGETS.map((t) => t.name));
		const wrong = Object.entries(FUZZED_READERS).flatMap(([key, target]) => {
			const [file = '', name = ''] = key.split('#');
			let text = '';
			try {
				text = exportsOf(file);
			} catch {
				return [`${key}: no such file`];
			}
			const exported = new RegExp(`export\\s+(?:async\\s+)?(?:function\\s+|const\\s+)${name}\\b`).test(text);
			return [...(exported ? [] : [`${key}: not exported`]), ...(targets.has(target) ? [] : [`${key}: no target "${target}"`])];
		});
		expect(wrong).toEqual([]);
	});
});
