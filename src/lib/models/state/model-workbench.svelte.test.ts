import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import type { ModelRun } from '$lib/models/rules/model-run';
import { bridge } from '../../core/state/testing/fake-bridge';
import { ModelFormStore } from './model-form.svelte';
import { badgeOf, ModelWorkbenchStore } from './model-workbench.svelte';
import { modelRuns } from './model-runs.svelte';
import { profiles } from '$lib/core/state/profiles.svelte';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { modelEntry } from '$lib/core/rules/run-entry';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

const run = (status: ModelRun['status'], kinds: string[] = []) =>
	({ status, result: { assets: kinds.map((kind) => ({ kind })) } }) as unknown as ModelRun;

describe('the model page workbench', () => {
	beforeEach(() => bridge.reset());
	afterEach(() => vi.restoreAllMocks());

	it.each<[string, ModelRun, string]>([
		['a run still going', run('running'), 'running'],
		['a failed run', run('failed'), 'failed'],
		['a video result', run('succeeded', ['image', 'video']), 'video'],
		['an audio result', run('succeeded', ['audio']), 'audio'],
		['a file', run('succeeded', ['file']), 'file'],
		['no assets', run('succeeded'), 'text']
	])('badges %s in the history strip', (_name, r, badge) => expect(badgeOf(r)).toBe(badge));

	it('shows one picked run alone, leaving a comparison', () => {
		const bench = new ModelWorkbenchStore(new ModelFormStore(), () => 'acme/model');
		bench.start();
		bench.togglePick('a');
		bench.togglePick('b');
		bench.compare();
		expect(bench.comparing).toBe(true);
		bench.showOne('b');
		flushSync();
		expect(bench.comparing).toBe(false);
		expect(bench.pickedOne).toBe('b');
		expect(bench.liveOpen).toBe(true);
		expect([...bench.picked]).toEqual(['a', 'b']);
		bench.dispose();
	});

	it('shows every run of its model that the timeline has, in the timeline’s state, reading a run its own copy lacks', async () => {
		const made = (id: string, modelId: string, status: ModelRun['status'], createdAt: number, savedAt: number) =>
			({ id, profileId: 'p', modelId, title: modelId, body: {}, mode: 'queue', status, createdAt, savedAt }) as unknown as ModelRun;
		// Started before this visit in another tab and finished there: the timeline has it, this page's copy does not.
		const elsewhere = made('r-elsewhere', 'acme/model', 'succeeded', 1, 5);
		const older = made('r-older', 'acme/model', 'failed', 0, 2);
		const otherModel = made('r-other', 'acme/other', 'succeeded', 2, 3);
		bridge.answer('timeline', () => [elsewhere, older, otherModel].map(modelEntry));
		bridge.answer('modelRun', ({ id }) => [elsewhere, older, otherModel].find((r) => r.id === id) ?? null);
		profiles.activeId = 'p';
		const bench = new ModelWorkbenchStore(new ModelFormStore(), () => 'acme/model');
		bench.start();
		await runEntries.load();
		flushSync();
		await vi.waitFor(() =>
			expect(bench.shown.map((r) => [r.id, r.status])).toEqual([
				['r-elsewhere', 'succeeded'],
				['r-older', 'failed']
			])
		);
		// A copy held behind the timeline's state (running while the list says done) is read again.
		const reads = bridge.callsOf('modelRun').length;
		modelRuns.runs['r-elsewhere'] = { ...elsewhere, status: 'running', savedAt: 4 };
		flushSync();
		expect(bridge.callsOf('modelRun').slice(reads)).toEqual([{ id: 'r-elsewhere' }]);
		await vi.waitFor(() => expect(bench.shown[0]?.status).toBe('succeeded'));
		bench.dispose();
		profiles.activeId = null;
	});

	it('starts nothing without an active profile or a form', async () => {
		const bench = new ModelWorkbenchStore(new ModelFormStore(), () => 'acme/model');
		expect(await bench.run('sync')).toBe(true);
		expect(bench.liveOpen).toBe(false);
		expect(bridge.callsOf('startModelRun')).toEqual([]);
	});
});
