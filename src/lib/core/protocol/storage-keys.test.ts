/**
 * Every IndexedDB key prefix is written out in `storage-keys.ts` only: no other module of the app
 * spells one as a string literal (comments and tests aside), so a prefix changes in one place.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as keys from './storage-keys';

const SRC = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
const HERE = new URL(import.meta.url).pathname.replace(/\.test\.ts$/, '.ts');

/** The prefixes, each up to its first colon (`setting:activeProfile` → `setting:`). */
const PREFIXES = [
	...new Set(
		Object.values(keys)
			.flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v : []))
			.map((k: string) => k.slice(0, k.indexOf(':') + 1))
	)
];

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|svelte)$/.test(name) && !/\.test\.ts$|\.fixture\.ts$/.test(name) ? [path] : [];
	});
}

/** String literals in `code` (comments left out) that start with one of the prefixes. */
function prefixLiterals(code: string): string[] {
	const bare = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
	return PREFIXES.flatMap((p) => [...bare.matchAll(new RegExp(`['"\`]${p}[^'"\`]*`, 'g'))].map((m) => m[0]));
}

describe('IndexedDB key prefixes', () => {
	it('are read from storage-keys.ts', () => {
		expect(PREFIXES).toEqual(expect.arrayContaining(['run:', 'output:', 'open:', 'prompt:', 'modelrun:', 'models:', 'tl:']));
	});

	it('finds a prefix spelled out, and not one in a comment', () => {
		expect(prefixLiterals("kv.get('modelrun:' + id); // 'run:' here is a comment")).toEqual(["'modelrun:"]);
		expect(prefixLiterals('const k = `output:${id}:0`; /* `tl:` */')).toEqual(['`output:${id}:0']);
	});

	it('appear in no other module of the app', () => {
		const found = sourceFiles(join(SRC, 'lib'))
			.concat(sourceFiles(join(SRC, 'routes')))
			.filter((f) => f !== HERE)
			.flatMap((f) => prefixLiterals(readFileSync(f, 'utf8')).map((literal) => `${relative(SRC, f)}: ${literal}`));
		expect(found).toEqual([]);
	});
});
