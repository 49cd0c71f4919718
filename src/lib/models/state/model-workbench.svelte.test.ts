import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import type { ModelRun } from '$lib/models/rules/model-run';
import { bridge } from '../../core/state/testing/fake-bridge';
import { ModelFormStore } from './model-form.svelte';
import { badgeOf, ModelWorkbenchStore } from './model-workbench.svelte';

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

	it('starts nothing without an active profile or a form', async () => {
		const bench = new ModelWorkbenchStore(new ModelFormStore(), () => 'acme/model');
		expect(await bench.run('sync')).toBe(true);
		expect(bench.liveOpen).toBe(false);
		expect(bridge.callsOf('startModelRun')).toEqual([]);
	});
});
