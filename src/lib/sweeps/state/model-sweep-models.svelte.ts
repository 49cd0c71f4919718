/**
 * "The same input on several models", on a model's page: the other models picked from the catalog,
 * each read from its own schema (its top-level fields and defaults). The fields every picked model
 * shares with the page's model are filled once, on the page's form; the rest are entered per model,
 * as a JSON object that starts from that model's defaults.
 */
import type { Field } from '$lib/fields/rules/field-model';
import type { JsonObject } from '$lib/core/protocol/json';
import { MODEL_AXIS, type ModelSweepTarget, type SweepAxis } from '../protocol/sweep';
import { sharedBodies } from '../rules/model-cells';

/** What the page reads of a model for a sweep (its schema, mapped to fields by the model feature). */
export type ModelReading = { ok: true; fields: Field[]; defaults: Record<string, unknown> } | { ok: false; message: string };

export interface PickedModel {
	modelId: string;
	reading: ModelReading | null;
	/** The model's own fields, as JSON the person may edit. */
	ownText: string;
}

export type TargetReading = { ok: true; target: ModelSweepTarget; axis: SweepAxis | null } | { ok: false; message: string };

const MAX_MODELS = 12;

export class ModelSweepModels {
	picked = $state<PickedModel[]>([]);

	constructor(
		private readonly page: () => { modelId: string; fields: Field[]; body: () => JsonObject },
		private readonly read: (modelId: string) => Promise<ModelReading>
	) {}

	/** Top-level field names every picked model has, with the page's model: filled once, and the ones a sweep may vary. */
	shared = $derived.by(() => {
		let names = new Set(this.page().fields.map((f) => String(f.path[0])));
		for (const p of this.picked) {
			if (!p.reading?.ok) continue;
			const theirs = new Set(p.reading.fields.map((f) => String(f.path[0])));
			names = new Set([...names].filter((n) => theirs.has(n)));
		}
		return names;
	});

	async add(modelId: string): Promise<string | null> {
		const id = modelId.trim();
		if (!/^[a-z0-9-]+\/[a-z0-9._-]+$/i.test(id)) return 'Pick a model id from the catalog, such as provider/model.';
		if (id === this.page().modelId || this.picked.some((p) => p.modelId === id)) return `${id} is already in the sweep.`;
		if (this.picked.length >= MAX_MODELS) return `A sweep takes at most ${MAX_MODELS + 1} models.`;
		this.picked = [...this.picked, { modelId: id, reading: null, ownText: '' }];
		const reading = await this.read(id);
		this.picked = this.picked.map((p) => (p.modelId === id ? { ...p, reading, ownText: reading.ok ? this.ownDefaults(reading) : '' } : p));
		return null;
	}

	remove(modelId: string): void {
		this.picked = this.picked.filter((p) => p.modelId !== modelId);
	}

	setOwn(modelId: string, text: string): void {
		this.picked = this.picked.map((p) => (p.modelId === modelId ? { ...p, ownText: text } : p));
	}

	/** The fields only this model has (not filled on the page's form). */
	ownFields(p: PickedModel): string[] {
		if (!p.reading?.ok) return [];
		const mine = new Set(this.page().fields.map((f) => String(f.path[0])));
		return p.reading.fields.map((f) => String(f.path[0])).filter((n) => !mine.has(n));
	}

	private ownDefaults(reading: Extract<ModelReading, { ok: true }>): string {
		const mine = new Set(this.page().fields.map((f) => String(f.path[0])));
		// Field names come from the model's schema: no prototype for a field named `__proto__` to reach.
		const own: Record<string, unknown> = Object.create(null);
		for (const [name, value] of Object.entries(reading.defaults)) if (!mine.has(name) && value !== null) own[name] = value;
		return JSON.stringify(own, null, 1);
	}

	/** The sweep's target (each model's body) and its axis of models, or why they cannot be read yet. */
	target(): TargetReading {
		const page = this.page();
		const formBody = page.body();
		const models = [{ modelId: page.modelId, fields: page.fields.map((f) => String(f.path[0])), own: {} as JsonObject }];
		for (const p of this.picked) {
			if (!p.reading) return { ok: false, message: `Reading the schema of ${p.modelId}…` };
			if (!p.reading.ok) return { ok: false, message: `${p.modelId}: ${p.reading.message}` };
			const own = parseOwn(p.ownText);
			if (!own) return { ok: false, message: `The fields only ${p.modelId} has must be a JSON object.` };
			models.push({ modelId: p.modelId, fields: p.reading.fields.map((f) => String(f.path[0])), own });
		}
		const target = { modelId: page.modelId, bodies: sharedBodies(formBody, models) };
		if (this.picked.length === 0) return { ok: true, target, axis: null };
		const axis: SweepAxis = {
			fieldId: MODEL_AXIS,
			path: [],
			label: 'Model',
			seed: false,
			values: models.map((m) => m.modelId),
			pairedWithPrevious: false
		};
		return { ok: true, target, axis };
	}
}

function parseOwn(text: string): JsonObject | null {
	if (text.trim() === '') return {};
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
	} catch {
		return null;
	}
}
