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
import { MAX_AXES, type SweepAxis } from '../protocol/sweep';
import { canVary, choicesOf, entryOf, readAxis, type AxisDraft, type AxisField, type AxisReading } from '../rules/axis-fields';
import { axisGroups } from '../rules/sweep-plan';

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
}

export class SweepPlanner {
	drafts = $state<AxisDraft[]>([]);
	problem = $state<string | null>(null);
	starting = $state(false);
	/** Random seeds are drawn once per entry, not again on every keystroke elsewhere. */
	private readonly drawn = new Map<string, AxisReading>();

	constructor(private readonly subject: () => SweepSubject) {}

	candidates = $derived.by(() => this.subject().fields.filter((f) => canVary(f.field)));

	readings = $derived(this.drafts.map((d) => this.read(d)));

	/** The axes, when every entry reads; the run count or why there is none. */
	plan = $derived.by(() => {
		const failed = this.readings.find((r) => !r.ok);
		if (failed && !failed.ok) return { ok: false as const, message: failed.message };
		const axes = this.readings.flatMap((r) => (r.ok ? [r.axis] : []));
		const groups = axisGroups(axes);
		return groups.ok ? { ok: true as const, axes, count: groups.count, sizes: groups.groups.map((g) => g.length) } : groups;
	});

	canAdd = $derived(this.drafts.length < MAX_AXES);

	/**
	 * The expected time, from this workflow's past runs on this server (one at a time, as its queue
	 * runs them), and the spend, which workflow runs never report: said, not invented.
	 */
	estimate = $derived.by(() => {
		const plan = this.plan;
		const { profileId, workflowId } = this.subject();
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
	}

	togglePick(index: number, key: string): void {
		const draft = this.drafts[index];
		if (!draft) return;
		this.update(index, { picks: draft.picks.includes(key) ? draft.picks.filter((k) => k !== key) : [...draft.picks, key] });
	}

	/** Starts the sweep; the answer is its id, for its grid page. */
	async start(): Promise<string | null> {
		const subject = this.subject();
		const plan = this.plan;
		if (!plan.ok || !subject.profileId) return null;
		this.starting = true;
		this.problem = null;
		try {
			const answer = await workerApi().startSweep({
				profileId: subject.profileId,
				workflowId: subject.workflowId,
				title: subject.title,
				base: subject.basePrompt(),
				seeds: this.frozenSeeds(subject, plan.axes),
				axes: plan.axes,
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
