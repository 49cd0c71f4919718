import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '$lib/core/protocol/json';
import { bridge } from '../../core/state/testing/fake-bridge';
import { ModelPageStore } from './models-page.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

const documentWith = (properties: JsonObject): JsonObject => ({
	openapi: '3.1.0',
	'x-service-input-schema-authored': true,
	paths: { '/v2/models/a/b': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } } } } },
	components: { schemas: {} }
});
const saved = documentWith({ prompt: { type: 'string' } });
const schemaView = (document: JsonObject, source: 'fresh' | 'saved', etag: string) => ({
	modelId: 'a/b',
	document,
	etag,
	savedAt: 1,
	source
});

describe('the model page store', () => {
	beforeEach(() => {
		bridge.reset();
		bridge.answer('modelEntry', () => ({ ok: true, value: { id: 'a/b', provider: 'a', model: 'b', billing: {} } }));
		bridge.answer('modelSchema', () => ({ ok: true, value: schemaView(saved, 'saved', 'v1') }));
		bridge.answer('lastModelInputs', () => ({ prompt: 'as last time' }));
		bridge.answer('rememberModelInputs', () => undefined);
	});

	it('opens a model with its saved schema and the inputs used last', async () => {
		const store = new ModelPageStore();
		await store.open('p', 'a/b');
		expect(store.entry?.id).toBe('a/b');
		expect(store.form.values).toEqual({ prompt: 'as last time' });
		expect(bridge.callsOf('modelSchema')).toEqual([{ profileId: 'p', modelId: 'a/b', savedFirst: true }]);
		store.close();
	});

	it('rebuilds the form from a newer document, keeping the values typed, and ignores other models', async () => {
		const store = new ModelPageStore();
		await store.open('p', 'a/b');
		store.form.set(['prompt'], 'typed here');
		const newer = documentWith({ prompt: { type: 'string' }, steps: { type: 'integer', default: 4 } });
		bridge.emit({ type: 'model-schema', profileId: 'p', view: { ...schemaView(newer, 'fresh', 'v2'), modelId: 'other/model' } });
		expect(store.form.form?.group.fields).toHaveLength(1);
		bridge.emit({ type: 'model-schema', profileId: 'p', view: schemaView(newer, 'fresh', 'v2') });
		expect(store.form.form?.group.fields.map((f) => f.path.at(-1))).toEqual(['prompt', 'steps']);
		expect(store.form.values).toEqual({ prompt: 'typed here' });
		expect(store.schema?.etag).toBe('v2');
		store.close();
	});

	it('stops listening when its page goes', async () => {
		const store = new ModelPageStore();
		await store.open('p', 'a/b');
		expect(bridge.listeners.size).toBe(1);
		store.close();
		expect(bridge.listeners.size).toBe(0);
	});
});
