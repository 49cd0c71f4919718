/**
 * Which unit-test files must run in a module registry of their own. Running every file in a fresh
 * worker costs about three times the CPU of the tests themselves (measured: 14.8 s against 5.0 s of
 * user time for the domain, wire and forms tests), so files share a worker unless they replace a
 * module or a global for everyone who imports it: `vi.mock`, `vi.doMock` and `vi.stubGlobal`.
 * Reading the files here, rather than keeping a list, means a new test that mocks is isolated the day
 * it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPLACES_SHARED_STATE = /\bvi\s*\.\s*(?:mock|doMock|stubGlobal)\s*\(/;

/** Test files (paths relative to `root`, with `/`) under `folders` whose names end in `suffix`. */
export function testFiles(root: string, folders: readonly string[], suffix = '.test.ts'): string[] {
	const found: string[] = [];
	const walk = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith(suffix)) found.push(relative(root, path).split('\\').join('/'));
		}
	};
	for (const folder of folders) walk(join(root, folder));
	return found.sort();
}

/** True when a test file's source replaces a module or a global that other files would then see. */
export function needsIsolation(source: string): boolean {
	return REPLACES_SHARED_STATE.test(source);
}

/** The files among `files` (relative to `root`) that need a registry of their own. */
export function isolatedTestFiles(root: string, files: readonly string[]): string[] {
	return files.filter((file) => needsIsolation(readFileSync(join(root, file), 'utf8')));
}
