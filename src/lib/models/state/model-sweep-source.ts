/**
 * What a sweep on a model's page reads of other models: their fields and defaults from their
 * schemas (for "the same input on several models"), and the catalog's ids to pick them from.
 */
import type { Field } from '$lib/fields/rules/field-model';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { prepareModelForm } from '../rules/schema-validate';

export type ModelFieldsReading = { ok: true; fields: Field[]; defaults: Record<string, unknown> } | { ok: false; message: string };

export async function modelFields(profileId: string, modelId: string): Promise<ModelFieldsReading> {
	const schema = await workerApi().modelSchema({ profileId, modelId, savedFirst: true });
	if (!schema.ok) return { ok: false, message: schema.error.message };
	const { form } = prepareModelForm(schema.value.document, modelId);
	return { ok: true, fields: form.group.fields, defaults: form.defaults };
}

/** The saved catalog's model ids (a walk refreshes it elsewhere); none when it cannot be read. */
export async function catalogModelIds(profileId: string): Promise<string[]> {
	const view = await workerApi().modelCatalog({ profileId });
	return view.ok ? view.value.models.map((m) => m.id) : [];
}
