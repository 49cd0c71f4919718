/**
 * Runs the planted specs (`*.planted.ts`): tests that break on purpose, run by `../page-errors.spec.ts`
 * in a child process to show the page-error fixture failing them. The main run never picks them up.
 */
import { defineConfig } from '@playwright/test';
import base from '../../../playwright.config';

export default defineConfig({
	...base,
	testDir: '.',
	testMatch: '*.planted.ts',
	// The parent run checked the build and the browser already.
	globalSetup: undefined,
	// The parent's reporters are named relative to the repository root; the child's report is the JSON the parent asks for.
	reporter: 'list',
	fullyParallel: false,
	workers: 1,
	projects: base.projects!.filter((project) => project.name === 'desk')
});
