/** One model's page: its catalog facts, its schema document (saved copy when offline) and its form. */
import type { AppError } from '$lib/core/protocol/errors';
import type { SchemaView } from '$lib/models/protocol/api';
import type { RouterModelListEntry } from '$lib/models/protocol/router-api';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import { ModelFormStore } from './model-form.svelte';
import { draftSaver } from '../../core/state/drafts';
import { modelTitle } from '../rules/model-title';

/** The title and description a schema document gives itself (null where it gives none). */
export function schemaInfo(document: unknown): { title: string | null; description: string | null } {
	const raw = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)['info'] : undefined;
	const o = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
	return {
		title: typeof o['title'] === 'string' && o['title'].trim() ? o['title'].trim() : null,
		description: typeof o['description'] === 'string' && o['description'].trim() ? o['description'].trim() : null
	};
}

export class ModelPageStore {
	entry = $state<RouterModelListEntry | null>(null);
	entryError = $state<AppError | null>(null);
	schema = $state.raw<SchemaView | null>(null);
	schemaError = $state<AppError | null>(null);
	loading = $state(false);
	readonly form = new ModelFormStore();
	/** The schema's own title and description, when it has them. */
	info = $derived(schemaInfo(this.schema?.document));

	/** The page's heading: the schema's title when it names the model, else the name in its id. */
	heading(modelId: string): string {
		return modelTitle(this.info.title, modelId);
	}
	private key = '';
	private unsubscribe: (() => void) | undefined;
	/** The inputs are remembered as they are edited, so a reload keeps a half-filled form. */
	private readonly draft = draftSaver(async () => {
		const [profileId, modelId] = this.key.split('|');
		if (profileId && modelId)
			await workerApi().rememberModelInputs({ profileId, modelId, body: $state.snapshot(this.form.values) as never });
	});

	constructor() {
		this.form.onEdit = () => this.draft.schedule();
	}

	/** A background revalidation: a new document rebuilds the form (keeping the values); a failure marks the copy as saved. */
	private listen(): void {
		this.unsubscribe ??= onWorkerEvent((event) => {
			if (event.type !== 'model-schema' || `${event.profileId}|${event.view.modelId}` !== this.key) return;
			if (event.view.source === 'fresh' && event.view.etag !== this.schema?.etag) {
				const values = $state.snapshot(this.form.values);
				this.form.load(event.view.document, event.view.modelId, values as never);
			}
			this.schema = event.view;
		});
	}

	close(): void {
		this.unsubscribe?.();
		this.unsubscribe = undefined;
	}

	async open(profileId: string, modelId: string): Promise<void> {
		const key = `${profileId}|${modelId}`;
		if (this.key === key) return;
		this.listen();
		performance.mark('runboard:model-page-open');
		this.key = key;
		this.entry = null;
		this.schema = null;
		this.entryError = null;
		this.schemaError = null;
		this.loading = true;
		const api = workerApi();
		const [entry, schema, last] = await Promise.all([
			api.modelEntry({ profileId, modelId }),
			api.modelSchema({ profileId, modelId, savedFirst: true }),
			api.lastModelInputs({ profileId, modelId })
		]);
		if (this.key !== key) return;
		if (entry.ok) this.entry = entry.value;
		else this.entryError = entry.error;
		if (schema.ok) {
			// A revalidation event may already have said more (changed, or could not be checked).
			if (!this.schema) this.schema = schema.value;
			this.form.load(schema.value.document, modelId, last);
			performance.measure('runboard:model-form-ready', 'runboard:model-page-open');
		} else this.schemaError = schema.error;
		this.loading = false;
	}
}
