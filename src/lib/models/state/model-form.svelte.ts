/**
 * One model's form: the fields mapped from its schema, the values (defaults, or the last inputs
 * used with this model), seeds, and errors placed at fields (browser validation and a 422's locs).
 */
import { valueAt, withValueAt, type Field, type FieldPath, type SeedMode, fieldId } from '$lib/fields/rules/field-model';
import { cleanBody } from '$lib/fields/rules/field-values';
import type { SchemaForm } from '$lib/fields/rules/schema-fields';
import { InputValidator, locToPath, placeErrors, prepareModelForm, shownFields, type FieldError } from '$lib/models/rules/schema-validate';
import { nextSeed, randomSeed } from '$lib/fields/rules/seeds';
import type { Json } from '$lib/core/protocol/json';

function seedFields(fields: Field[]): Array<Extract<Field, { kind: 'seed' }>> {
	return fields.filter((f): f is Extract<Field, { kind: 'seed' }> => f.kind === 'seed');
}

export class ModelFormStore {
	form = $state.raw<SchemaForm | null>(null);
	values = $state<Record<string, unknown>>({});
	errors = $state<Record<string, string>>({});
	unplaced = $state<string[]>([]);
	seedModes = $state<Record<string, SeedMode>>({});
	/** Milliseconds the schema-to-fields mapping took (shown to the curious; benchmarked). */
	mappingMs = $state(0);
	/** Called after every edit (the page keeps the draft). */
	onEdit: (() => void) | undefined;
	/** Null where the browser does not check the input (no schema, or one the validator cannot compile). */
	private validator: InputValidator | null = null;

	load(document: Record<string, unknown>, title: string, lastInputs: Json | null): void {
		const t0 = performance.now();
		const { form, validator } = prepareModelForm(document, title);
		this.mappingMs = performance.now() - t0;
		this.form = form;
		this.values =
			lastInputs && typeof lastInputs === 'object' && !Array.isArray(lastInputs)
				? structuredClone(lastInputs)
				: structuredClone(form.defaults);
		this.errors = {};
		this.unplaced = [];
		this.validator = validator;
	}

	valueOf(field: Field): unknown {
		return field.path.length === 0 ? this.values : valueAt(this.values, field.path);
	}

	set(path: FieldPath, value: unknown): void {
		this.values = (path.length === 0 ? (value ?? {}) : withValueAt(this.values, path, value)) as Record<string, unknown>;
		const id = fieldId(path);
		if (Object.hasOwn(this.errors, id)) delete this.errors[id];
		this.onEdit?.();
	}

	errorAt(path: FieldPath): string | undefined {
		const id = fieldId(path);
		// Field ids are schema property names: `constructor` must not find Object.prototype's.
		return Object.hasOwn(this.errors, id) ? this.errors[id] : undefined;
	}

	resetToDefaults(): void {
		if (this.form) this.values = structuredClone(this.form.defaults);
		this.errors = {};
		this.unplaced = [];
	}

	seedMode(id: string): SeedMode {
		return (Object.hasOwn(this.seedModes, id) ? this.seedModes[id] : undefined) ?? 'fixed';
	}

	setSeedMode(id: string, mode: SeedMode): void {
		this.seedModes = { ...this.seedModes, [id]: mode };
	}

	private place(errors: FieldError[]): void {
		if (!this.form) return;
		const placed = placeErrors(this.form.group.fields, this.values, errors);
		this.errors = { ...placed.byField };
		this.unplaced = placed.unplaced;
	}

	/** The errors in the order of the form, with the label of the field each is at, for the summary by Run. */
	errorSummary(): Array<{ id: string; label: string; message: string }> {
		if (!this.form) return [];
		const shown = shownFields(this.form.group.fields, this.values);
		const out: Array<{ id: string; label: string; message: string }> = [];
		for (const [id, field] of shown) if (Object.hasOwn(this.errors, id)) out.push({ id, label: field.label, message: this.errors[id]! });
		for (const message of this.unplaced) out.push({ id: '', label: 'Input', message });
		return out;
	}

	/** Checks the body against the schema in the browser; true when it may be sent. */
	validate(): boolean {
		const form = this.form;
		if (!form) return false;
		if (!this.validator) {
			const ok = typeof this.values === 'object' && this.values !== null && !Array.isArray(this.values);
			this.place(ok ? [] : [{ path: [], message: 'The input must be a JSON object.' }]);
			return ok;
		}
		const errors = this.validator.validate(this.body());
		this.place(errors);
		return errors.length === 0;
	}

	/** A service 422: each `detail[].msg` at the field its `loc` points to. */
	applyServiceErrors(entries: Array<{ loc: Array<string | number>; msg: string }>): void {
		this.place(entries.map((e) => ({ path: locToPath(e.loc), message: e.msg })));
	}

	/** Seeds in "randomize" mode get a new value before a run; returns the seeds that will be sent. */
	prepareSeeds(): Record<string, number> {
		// Field ids are paths in the model's schema: no prototype for a property named `__proto__` to reach.
		const used: Record<string, number> = Object.create(null);
		if (!this.form) return used;
		for (const f of seedFields(this.form.group.fields)) {
			if (this.seedMode(f.id) === 'randomize') this.set(f.path, randomSeed(f.min, f.max));
			const v = valueAt(this.values, f.path);
			if (typeof v === 'number') used[f.id] = v;
		}
		return used;
	}

	/** After a run: seeds in "increment" mode move on. */
	advanceSeeds(): void {
		if (!this.form) return;
		for (const f of seedFields(this.form.group.fields)) {
			const v = valueAt(this.values, f.path);
			if (this.seedMode(f.id) === 'increment' && typeof v === 'number') this.set(f.path, nextSeed('increment', v, f.min, f.max));
		}
	}

	body(): Json {
		if (!this.form) return {};
		return (
			this.form.authored && !this.form.note ? cleanBody(this.form.group.fields, $state.snapshot(this.values)) : $state.snapshot(this.values)
		) as Json;
	}
}
