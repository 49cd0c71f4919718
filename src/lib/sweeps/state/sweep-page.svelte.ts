/**
 * One sweep's grid page: the record, kept live from the worker's events, its grid shape, the page of
 * the third axis shown, the actions on the sweep, and two cells picked to compare.
 */
import { SvelteSet } from 'svelte/reactivity';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { SweepAction, SweepCell, SweepRecord } from '../protocol/sweep';
import { cellAt, gridShape, progressWords, tally } from '../rules/sweep-grid';
import { valueWords } from '../rules/sweep-plan';

export class SweepPageStore {
	sweep = $state<SweepRecord | null>(null);
	missing = $state(false);
	page = $state(0);
	/** Cells picked to compare (by index), at most two. */
	readonly picked = new SvelteSet<number>();
	private unsubscribe: (() => void) | undefined;

	shape = $derived(this.sweep ? gridShape(this.sweep) : null);
	words = $derived(this.sweep ? progressWords(this.sweep) : '');
	counts = $derived(this.sweep ? tally(this.sweep) : null);
	canPause = $derived(this.sweep?.status === 'running' && (this.counts?.pending ?? 0) > 0);
	canResume = $derived(this.sweep?.status === 'paused');
	canCancel = $derived(this.sweep?.status === 'running' || this.sweep?.status === 'paused');
	canRetry = $derived((this.counts?.failed ?? 0) > 0 && this.sweep?.status !== 'running');
	/** Every cell of the shown page, row by row. */
	pageRows = $derived.by(() => {
		const sweep = this.sweep;
		const shape = this.shape;
		if (!sweep || !shape) return [];
		return shape.rows.map((label, row) => ({
			label,
			cells: shape.columns.map((_, column) => cellAt(sweep, column, row, this.page)).filter((c): c is SweepCell => c !== undefined)
		}));
	});

	async open(id: string): Promise<void> {
		this.unsubscribe ??= onWorkerEvent((event) => {
			if (event.type === 'sweep' && event.sweep.id === id) this.sweep = event.sweep;
		});
		const sweep = await workerApi().getSweep({ id });
		if (sweep) this.sweep = sweep;
		else this.missing = true;
	}

	dispose(): void {
		this.unsubscribe?.();
		this.unsubscribe = undefined;
	}

	async act(action: SweepAction): Promise<void> {
		if (!this.sweep) return;
		const after = await workerApi().sweepAction({ id: this.sweep.id, action });
		if (after) this.sweep = after;
	}

	togglePick(index: number): void {
		if (this.picked.has(index)) this.picked.delete(index);
		else {
			if (this.picked.size >= 2) this.picked.delete([...this.picked][0]!);
			this.picked.add(index);
		}
	}

	/** The values a cell sets, as its caption: "seed 2, cfg 6". */
	valuesOf(cell: SweepCell): string {
		if (!this.sweep) return '';
		return this.sweep.axes.map((a, i) => `${a.label.split(' · ').at(-1)} ${valueWords(cell.values[i] ?? '')}`).join(', ');
	}
}
