/** One model's page: its catalog facts and its schema document (saved copy when offline). */
import type { AppError } from '$lib/domain/errors';
import type { SchemaView } from '$lib/worker/models/api';
import type { RouterModelListEntry } from '$lib/wire/router-api';
import { workerApi } from '$lib/client/worker-bridge';

export class ModelPageStore {
	entry = $state<RouterModelListEntry | null>(null);
	entryError = $state<AppError | null>(null);
	schema = $state<SchemaView | null>(null);
	schemaError = $state<AppError | null>(null);
	loading = $state(false);
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
		const [entry, schema] = await Promise.all([
			workerApi().modelEntry({ profileId, modelId }),
			workerApi().modelSchema({ profileId, modelId })
		]);
		if (this.key !== key) return;
		if (entry.ok) this.entry = entry.value;
		else this.entryError = entry.error;
		if (schema.ok) this.schema = schema.value;
		else this.schemaError = schema.error;
		this.loading = false;
	}
}
