/**
 * The sweep being planned on a workflow's form: up to three inputs to vary, what each takes, how many
 * runs that makes, and starting it. Everything outside the axes is frozen as the form shows it when
 * the sweep starts, seeds included: a seed set to change after each run stays put unless it is an axis.
 */
import type { Field } from '$lib/fields/rules/field-model';
import type { ApiPrompt } from '$lib/core/protocol/workflow-run';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';
import { runEntries } from '$lib/core/state/run-entries.svelte';
import { estimateRemaining, formatDuration, recentDurations } from '$lib/core/rules/eta';
import { MAX_AXES, MODEL_AXIS, type SweepAxis } from '../protocol/sweep';
import { canVary, choicesOf, entryOf, readAxis, type AxisDraft, type AxisField, type AxisReading } from '../rules/axis-fields';
import { axisGroups } from '../rules/sweep-plan';
import { expectedCredits, type SpendExpectation } from '../rules/sweep-spend';
import { overLimit, readLimits, type SweepLimits } from '../rules/sweep-limit';

const LIMITS_KEY = 'runboard:sweep-limits';
const savedLimits = () => {
	try {
		return globalThis.localStorage?.getItem(LIMITS_KEY) ?? null;
	} catch {
		return null;
	}
};
import type { ModelSweepModels } from './model-sweep-models.svelte';

/** What the planner reads of the open workflow. */
export interface SweepSubject {
	profileId: string | null;
	/** The pool the form's Run sends to, if one is chosen: the sweep's cells go through it too. */
	poolId?: string | null;
	workflowId: string | null;
	title: string;
	fields: AxisField[];
	/** The workflow with the form's values, as a plain object. */
	basePrompt(): ApiPrompt;
	valueOf(field: Field): unknown;
	/** On a model's page: the sweep runs router models (this one, or the same input on several). */
	models?: ModelSweepModels;
}

export class SweepPlanner {
	drafts = $state<AxisDraft[]>([]);
	problem = $state<string | null>(null);
	starting = $state(false);
	/** The limits this device keeps for one sweep; a sweep over them asks first. */
	limits = $state<SweepLimits>(readLimits(savedLimits()));
	/** Why the sweep asked to be confirmed, after a Start over the limits. */
	confirming = $state<string | null>(null);
	/** Random seeds are drawn once per entry, not again on every keystroke elsewhere. */
	private readonly drawn = new Map<string, AxisReading>();

	constructor(private readonly subject: () => SweepSubject) {}

	candidates = $derived.by(() => {
		const { fields, models } = this.subject();
		// Several models: only what they all have can vary (their own fields are set once per model).
		return fields.filter((f) => canVary(f.field) && (!models || models.shared.has(String(f.field.path[0]))));
	});

	readings = $derived(this.drafts.map((d) => this.read(d)));

	/** A model sweep's models and their bodies, or why they cannot be read yet. */
	target = $derived.by(() => this.subject().models?.target() ?? null);

	/** The axis of models leads (the grid's columns) when several models are picked. */
	leading = $derived(this.target?.ok && this.target.axis ? [this.target.axis] : []);

	/** The axes, when every entry reads; the run count or why there is none. */
	plan = $derived.by(() => {
		if (this.target && !this.target.ok) return { ok: false as const, message: this.target.message };
		const failed = this.readings.find((r) => !r.ok);
		if (failed && !failed.ok) return { ok: false as const, message: failed.message };
		const axes = [...this.leading, ...this.readings.flatMap((r) => (r.ok ? [r.axis] : []))];
		const groups = axisGroups(axes);
		return groups.ok ? { ok: true as const, axes, count: groups.count, sizes: groups.groups.map((g) => g.length) } : groups;
	});

	get models(): ModelSweepModels | null {
		return this.subject().models ?? null;
	}

	canAdd = $derived(this.leading.length + this.drafts.length < MAX_AXES);

	/**
	 * The expected time, from this workflow's past runs on this server (one at a time, as its queue
	 * runs them), and the spend, which workflow runs never report: said, not invented.
	 */
	estimate = $derived.by(() => {
		const plan = this.plan;
		const { profileId, workflowId, models } = this.subject();
		if (models) return plan.ok ? this.modelEstimate(plan.axes, plan.count) : null;
		if (!plan.ok || !workflowId) return null;
		const here = [...runEntries.entries.values()].filter((e) => e.profileId === profileId);
		const past = recentDurations(here, 'workflow', workflowId);
		const ms = estimateRemaining({ position: plan.count - 1, recentDurations: past });
		const time =
			ms === undefined
				? 'No past run of this workflow on this server to estimate the time from.'
				: `About ${formatDuration(ms)}, from ${Math.min(past.length, 10)} past run${past.length === 1 ? '' : 's'} of this workflow here.`;
		return `${time} Spend: not known (workflow runs here report none).`;
	});

	/**
	 * A model sweep's time from past runs of its models here; its spend is not known before
	 * (the router reports no price, and runs here keep no charge of their own).
	 */
	private modelEstimate(axes: SweepAxis[], count: number): string {
		const { profileId } = this.subject();
		const target = this.target?.ok ? this.target.target : null;
		const ids = axes.find((a) => a.fieldId === MODEL_AXIS)?.values.map(String) ?? (target ? [target.modelId] : []);
		const here = [...runEntries.entries.values()].filter((e) => e.profileId === profileId);
		const past = ids.flatMap((id) => recentDurations(here, 'model', id).slice(0, 10));
		const ms = estimateRemaining({ position: count - 1, recentDurations: past });
		const time =
			ms === undefined
				? 'No past run of these models here to estimate the time from.'
				: `About ${formatDuration(ms)} if run one at a time, from ${past.length} past run${past.length === 1 ? '' : 's'} of these models here.`;
		return `${time} ${this.spend?.words ?? ''}`;
	}

	/** A model sweep's expected spend, from what past runs of its models reported; null for a workflow sweep. */
	spend = $derived.by((): SpendExpectation | null => {
		const plan = this.plan;
		const { profileId, models } = this.subject();
		if (!models || !plan.ok) return null;
		const target = this.target?.ok ? this.target.target : null;
		const ids = plan.axes.find((a) => a.fieldId === MODEL_AXIS)?.values.map(String) ?? (target ? [target.modelId] : []);
		const here = [...runEntries.entries.values()].filter((e) => e.profileId === profileId);
		return expectedCredits(here, ids, plan.count);
	});

	/** Why this sweep asks first (over the run count or the spend the person set), or null. */
	overLimit = $derived.by(() => {
		const plan = this.plan;
		if (!plan.ok) return null;
		return overLimit({ count: plan.count, credits: this.spend?.credits ?? null, paid: this.subject().models !== undefined }, this.limits);
	});

	setLimits(change: Partial<SweepLimits>): void {
		this.limits = { ...this.limits, ...change };
		this.confirming = null;
		try {
			globalThis.localStorage?.setItem(LIMITS_KEY, JSON.stringify(this.limits));
		} catch {
			// Private mode: the limits hold for this page only.
		}
	}

	fieldOf(draft: AxisDraft): AxisField | undefined {
		return this.candidates.find((c) => c.field.id === draft.fieldId);
	}

	entry(draft: AxisDraft): 'typed' | 'lines' | 'picks' | null {
		const found = this.fieldOf(draft);
		return found ? entryOf(found.field) : null;
	}

	choices(draft: AxisDraft) {
		const found = this.fieldOf(draft);
		return found ? choicesOf(found.field) : [];
	}

	hint(draft: AxisDraft): string {
		const found = this.fieldOf(draft);
		if (!found) return '';
		if (found.field.kind === 'seed') return 'A range (1..3), a list (7, 42, 1234) or N random seeds (4 random).';
		if (found.field.kind === 'text' || found.field.kind === 'textarea') return 'One value per line.';
		return 'A list (4, 6, 8) or a range with a step (4..10 step 2).';
	}

	add(): void {
		if (!this.canAdd) return;
		const used = new Set(this.drafts.map((d) => d.fieldId));
		const first = this.candidates.find((c) => !used.has(c.field.id));
		this.drafts = [...this.drafts, { fieldId: first?.field.id ?? '', text: '', picks: [], paired: false }];
	}

	remove(index: number): void {
		this.drafts = this.drafts.filter((_, i) => i !== index).map((d, i) => (i === 0 ? { ...d, paired: false } : d));
	}

	update(index: number, change: Partial<AxisDraft>): void {
		this.drafts = this.drafts.map((d, i) => (i === index ? { ...d, ...change } : d));
		this.problem = null;
		this.confirming = null;
	}

	togglePick(index: number, key: string): void {
		const draft = this.drafts[index];
		if (!draft) return;
		this.update(index, { picks: draft.picks.includes(key) ? draft.picks.filter((k) => k !== key) : [...draft.picks, key] });
	}

	/** Starts the sweep (over the limits, only once confirmed); the answer is its id, for its grid page. */
	async start(confirmed = false): Promise<string | null> {
		const subject = this.subject();
		const plan = this.plan;
		if (!plan.ok || !subject.profileId) return null;
		if (this.overLimit && !confirmed) {
			this.confirming = this.overLimit;
			return null;
		}
		this.confirming = null;
		this.starting = true;
		this.problem = null;
		try {
			const target = this.target?.ok ? this.target.target : null;
			const answer = await workerApi().startSweep({
				profileId: subject.profileId,
				workflowId: subject.workflowId,
				title: subject.title,
				base: target ? {} : subject.basePrompt(),
				seeds: this.frozenSeeds(subject, plan.axes),
				axes: plan.axes,
				...(target ? { model: target } : {}),
				...(subject.poolId ? { poolId: subject.poolId } : {})
			});
			if (!answer.ok) {
				this.problem = answer.error.message;
				return null;
			}
			return answer.value.id;
		} finally {
			this.starting = false;
		}
	}

	/** Seeds outside the axes as the form shows them now: the same in every cell. */
	private frozenSeeds(subject: SweepSubject, axes: SweepAxis[]): Record<string, number> {
		// Field ids come from the workflow file: no prototype for a key like `__proto__` to reach.
		const seeds: Record<string, number> = Object.create(null);
		const varied = new Set(axes.map((a) => a.fieldId));
		for (const { field } of subject.fields) {
			const value = subject.valueOf(field);
			if (field.kind === 'seed' && !varied.has(field.id) && typeof value === 'number') seeds[field.id] = value;
		}
		return seeds;
	}

	private read(draft: AxisDraft): AxisReading {
		const found = this.fieldOf(draft);
		const random = found?.field.kind === 'seed' && /random/i.test(draft.text);
		if (!random) return readAxis(draft, found);
		const key = `${draft.fieldId}\n${draft.text}`;
		const reading = this.drawn.get(key) ?? readAxis(draft, found);
		this.drawn.set(key, reading);
		return reading;
	}
}
