/** One model's page: its catalog facts, its schema document (saved copy when offline) and its form. */
import type { AppError } from '$lib/domain/errors';
import type { SchemaView } from '$lib/worker/models/api';
import type { RouterModelListEntry } from '$lib/wire/router-api';
import { workerApi } from '$lib/client/worker-bridge.svelte';
import { ModelFormStore } from './model-form.svelte';

export class ModelPageStore {
	entry = $state<RouterModelListEntry | null>(null);
	entryError = $state<AppError | null>(null);
	schema = $state.raw<SchemaView | null>(null);
	schemaError = $state<AppError | null>(null);
	loading = $state(false);
	readonly form = new ModelFormStore();
	private key = '';

	async open(profileId: string, modelId: string): Promise<void> {
		const key = `${profileId}|${modelId}`;
		if (this.key === key) return;
		this.key = key;
		this.entry = null;
		this.schema = null;
		this.entryError = null;
		this.schemaError = null;
		this.loading = true;
		const api = workerApi();
		const [entry, schema, last] = await Promise.all([
			api.modelEntry({ profileId, modelId }),
			api.modelSchema({ profileId, modelId }),
			api.lastModelInputs({ profileId, modelId })
		]);
		if (this.key !== key) return;
		if (entry.ok) this.entry = entry.value;
		else this.entryError = entry.error;
		if (schema.ok) {
			this.schema = schema.value;
			this.form.load(schema.value.document, modelId, last);
		} else this.schemaError = schema.error;
		this.loading = false;
	}
}
