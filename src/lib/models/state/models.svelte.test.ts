import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogView, WalkStatus } from '$lib/models/rules/model-catalog';
import type { RouterModelListEntry } from '$lib/models/protocol/router-api';
import { bridge } from '../../core/state/testing/fake-bridge';
import { CatalogStore } from './models.svelte';
import { RouterHealthBoard } from '../../core/state/router-health.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

/** Frames the store asked for, run by the test (Node has no requestAnimationFrame; the module's own store asks at import). */
const frames = vi.hoisted(() => {
	const asked: Array<() => void> = [];
	globalThis.requestAnimationFrame = (tick) => asked.push(() => tick(0));
	return asked;
});

const model = (id: string, charges: 'yes' | 'no' = 'no'): RouterModelListEntry => {
	const [provider, name] = id.split('/') as [string, string];
	return { id, provider, model: name, billing: { charges_on_policy_rejection: charges } } as RouterModelListEntry;
};
const walking: WalkStatus = { kind: 'walking', pages: 1 };
const view = (models: RouterModelListEntry[], walk: WalkStatus = walking, profileId = 'p'): CatalogView => ({
	profileId,
	models,
	savedAt: null,
	source: 'walk',
	walk
});

describe('the catalog store', () => {
	const nextFrame = () => frames.splice(0).forEach((tick) => tick());

	beforeEach(() => {
		bridge.reset();
		frames.length = 0;
		bridge.answer('modelCatalog', () => ({ ok: true, value: view([model('a/one')]) }));
		bridge.answer('modelSummaries', () => ({ summaries: [], progress: null }));
	});

	it('shows saved summaries at once, then those the prefetch sends, and filters by kind chips', async () => {
		bridge.answer('modelCatalog', () => ({ ok: true, value: view([model('a/one'), model('a/two')]) }));
		bridge.answer('modelSummaries', () => ({
			summaries: [{ modelId: 'a/one', kind: 'audio', needs: ['text'], etag: null, description: 'Reads text aloud as speech.' }],
			progress: { done: 1, total: 2 }
		}));
		const catalog = new CatalogStore();
		await catalog.open('p');
		await vi.waitFor(() => expect(catalog.summaries.get('a/one')?.kind).toBe('audio'));
		catalog.query = 'speech';
		expect(catalog.shown.map((m) => m.id)).toEqual(['a/one']);
		catalog.query = '';
		bridge.emit({
			type: 'model-summaries',
			profileId: 'p',
			summaries: [{ modelId: 'a/two', kind: 'video', needs: [], etag: null }],
			progress: { done: 2, total: 2 }
		});
		catalog.kinds.add('video');
		expect(catalog.shown.map((m) => m.id)).toEqual(['a/two']);
		expect(catalog.prefetch).toEqual({ done: 2, total: 2 });
		catalog.dispose();
	});

	it('asks the worker once while a walk runs, however often it is opened', async () => {
		const catalog = new CatalogStore();
		await Promise.all([catalog.open('p'), catalog.open('p'), catalog.open('p')]);
		await catalog.open('p');
		expect(bridge.callsOf('modelCatalog')).toEqual([{ profileId: 'p', refresh: false }]);
		expect(catalog.models.map((m) => m.id)).toEqual(['a/one']);
		catalog.dispose();
	});

	it('appends pages as they come, at most once per frame, and ignores other profiles', async () => {
		const catalog = new CatalogStore();
		await catalog.open('p');
		bridge.emit({ type: 'model-catalog-page', profileId: 'p', walk: walking, added: { from: 1, models: [model('a/two')] } });
		bridge.emit({ type: 'model-catalog-page', profileId: 'p', walk: walking, added: { from: 2, models: [model('b/three')] } });
		bridge.emit({ type: 'model-catalog-page', profileId: 'q', walk: walking, added: { from: 1, models: [model('z/other')] } });
		// The first update at once, the second with the next frame.
		expect(catalog.models.map((m) => m.id)).toEqual(['a/one', 'a/two']);
		nextFrame();
		expect(catalog.models.map((m) => m.id)).toEqual(['a/one', 'a/two', 'b/three']);
		catalog.dispose();
	});

	it('keeps the objects of unchanged entries when a whole view arrives', async () => {
		const catalog = new CatalogStore();
		await catalog.open('p');
		const shown = catalog.models[0];
		bridge.emit({ type: 'model-catalog', view: view([model('a/one'), model('a/two')], { kind: 'done', pages: 2, at: 1, ms: 5 }) });
		expect(catalog.models[0]).toBe(shown);
		expect(catalog.models).toHaveLength(2);
		catalog.dispose();
	});

	it('asks for the whole view again when an update does not follow the list it shows', async () => {
		const catalog = new CatalogStore();
		await catalog.open('p');
		bridge.answer('modelCatalog', () => ({ ok: true, value: view([model('a/one'), model('a/two'), model('a/three')]) }));
		bridge.emit({ type: 'model-catalog-page', profileId: 'p', walk: walking, added: { from: 2, models: [model('a/three')] } });
		await vi.waitFor(() => expect(catalog.models).toHaveLength(3));
		expect(bridge.callsOf('modelCatalog')).toHaveLength(2);
		catalog.dispose();
	});

	it('filters by words, provider and refusal charges', async () => {
		bridge.answer('modelCatalog', () => ({
			ok: true,
			value: view([model('lumen/flux-dev'), model('lumen/flux-pro', 'yes'), model('sonora/speech')], { kind: 'idle' })
		}));
		const catalog = new CatalogStore();
		await catalog.open('p');
		expect(catalog.providers).toEqual(['lumen', 'sonora']);
		catalog.query = 'flux';
		expect(catalog.shown.map((m) => m.id)).toEqual(['lumen/flux-dev', 'lumen/flux-pro']);
		catalog.notChargedOnRefusal = true;
		expect(catalog.shown.map((m) => m.id)).toEqual(['lumen/flux-dev']);
		catalog.query = '';
		catalog.provider = 'sonora';
		expect(catalog.groups.map((g) => g.provider)).toEqual(['sonora']);
		catalog.dispose();
	});

	it('shows the error of a catalog that cannot be read', async () => {
		bridge.answer('modelCatalog', () => ({ ok: false, error: { kind: 'network', message: 'The router did not answer.' } }));
		const catalog = new CatalogStore();
		await catalog.open('p');
		expect(catalog.error).toMatchObject({ kind: 'network' });
		expect(catalog.view).toBeNull();
		catalog.dispose();
	});

	it('tells the health board what its walk saw, for its own profile only (the badge reads the board, not the catalog)', async () => {
		bridge.answer('modelCatalog', () => ({ ok: false, error: { kind: 'unavailable', message: 'Try later.', status: 503 } }));
		const board = new RouterHealthBoard();
		const catalog = new CatalogStore(board);
		expect(board.of('p')).toEqual({ kind: 'unknown' });
		await catalog.open('p');
		expect(board.of('p')).toEqual({ kind: 'failing', words: 'Models unavailable' });
		expect(board.of('q')).toEqual({ kind: 'unknown' });
		bridge.emit({ type: 'model-catalog', view: view([model('a/one')], { kind: 'done', pages: 1, at: 1, ms: 5 }) });
		catalog.error = null;
		expect(board.of('p')).toEqual({ kind: 'ok' });
		expect(catalog.healthOf('p')).toEqual({ kind: 'ok' });
		catalog.dispose();
	});

	it('stops following events once disposed', async () => {
		const catalog = new CatalogStore();
		await catalog.open('p');
		expect(bridge.listeners.size).toBe(1);
		catalog.dispose();
		expect(bridge.listeners.size).toBe(0);
	});
});
