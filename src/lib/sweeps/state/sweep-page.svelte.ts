/**
 * One sweep's grid page: the record, kept live from the worker's events, its grid shape, the page of
 * the third axis shown, the actions on the sweep, and two cells picked to compare.
 */
import { SvelteSet } from 'svelte/reactivity';
import { appError, fail, ok, type Result } from '$lib/core/protocol/errors';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';
import type { SweepAction, SweepCell, SweepRecord } from '../protocol/sweep';
import { gridShape, progressWords, tally } from '../rules/sweep-grid';
import { valueWords } from '../rules/sweep-plan';
import { cellRows, sweepCsv, sweepJson, type CellRunFacts } from '../rules/sweep-export';
import { nodeLabel, outputChoices, type OutputChoice } from '../rules/output-choices';
import type { CellShown } from '$lib/core/rules/cell-output';

export class SweepPageStore {
	/**
	 * The record as the worker last sent it, not made deeply reactive: a 400-cell sweep changes on
	 * every run event, and only the cells that changed are new objects (see `keepUnchanged`).
	 */
	sweep = $state.raw<SweepRecord | null>(null);
	missing = $state(false);
	page = $state(0);
	/** The output the grid shows of each run (a workflow's output node, a model result's asset path), saved with the sweep; null: each run's first. */
	shownSource = $derived(this.sweep?.shownSource ?? null);
	/** Cells picked to compare (by index), at most two. */
	readonly picked = new SvelteSet<number>();
	private unsubscribe: (() => void) | undefined;

	shape = $derived(this.sweep ? gridShape(this.sweep) : null);
	words = $derived(this.sweep ? progressWords(this.sweep) : '');
	counts = $derived(this.sweep ? tally(this.sweep) : null);
	canPause = $derived(this.sweep?.status === 'running' && (this.counts?.pending ?? 0) > 0);
	canResume = $derived(this.sweep?.status === 'paused');
	canCancel = $derived(this.sweep?.status === 'running' || this.sweep?.status === 'paused');
	/** Nothing left to send or stop: the sweep can be deleted as a whole. */
	ended = $derived(this.sweep?.status === 'finished' || this.sweep?.status === 'cancelled');
	/** The runs its cells made (a cell never sent has none). */
	runIds = $derived(this.sweep ? this.sweep.cells.flatMap((c) => (c.runId ? [c.runId] : [])) : []);
	canRetry = $derived((this.counts?.failed ?? 0) > 0 && this.sweep?.status !== 'running');
	/** Every cell of the shown page, row by row. */
	pageRows = $derived.by(() => {
		const sweep = this.sweep;
		const shape = this.shape;
		if (!sweep || !shape) return [];
		const [columns, rows] = [shape.columns.length, shape.rows.length];
		return shape.rows.map((label, row) => ({
			label,
			cells: sweep.cells.slice(columns * (row + rows * this.page), columns * (row + 1 + rows * this.page))
		}));
	});

	async open(id: string): Promise<void> {
		this.unsubscribe ??= onWorkerEvent((event) => {
			if (event.type === 'sweep' && event.sweep.id === id) this.sweep = keepUnchanged(this.sweep, event.sweep);
		});
		const sweep = await workerApi().getSweep({ id });
		if (sweep) this.sweep = sweep;
		else this.missing = true;
	}

	dispose(): void {
		this.unsubscribe?.();
		this.unsubscribe = undefined;
		this.disposed = true;
		for (const pending of this.pictures.values()) void pending.then((r) => r.ok && 'url' in r.value && URL.revokeObjectURL(r.value.url));
		this.pictures.clear();
		for (const pending of this.videos.values()) void pending.then((r) => r.ok && URL.revokeObjectURL(r.value));
		this.videos.clear();
	}

	/** Shows another output of each run in the grid, and saves the choice with the sweep (its thumbnails and picture follow). */
	async show(source: string | null): Promise<void> {
		const sweep = this.sweep;
		if (!sweep || source === this.shownSource) return;
		const { shownSource: _old, ...rest } = sweep;
		this.sweep = source === null ? rest : { ...rest, shownSource: source };
		const after = await workerApi().showSweepOutput({ id: sweep.id, source });
		if (after) this.sweep = keepUnchanged(this.sweep, after);
	}

	private readonly pictures = new Map<string, Promise<Result<CellShown>>>();
	private readonly videos = new Map<string, Promise<Result<string>>>();
	private disposed = false;

	/**
	 * What a cell shows of its run's output `output`, as an object URL: the output when this device has
	 * it, else the cell's kept thumbnail or its video's poster (the outputs were freed, or the server
	 * forgot them), or why a video has no poster. Read once per page; the page's going revokes them.
	 */
	cellPicture(cell: SweepCell, output: number): Promise<Result<CellShown>> {
		return this.readOnce(this.pictures, cell, output, 'output', async (sweep) => {
			const shown = await workerApi().sweepCellPicture({ id: sweep.id, cell: cell.index, output });
			if (!shown) return fail(appError('not-found', 'This output is no longer on this device or its server.'));
			if (this.disposed) return fail(appError('cancelled', 'The page that asked for this output is gone.'));
			return ok(shown.from === 'no-poster' ? shown : { url: URL.createObjectURL(shown.picture), from: shown.from });
		});
	}

	/** An object URL of a cell's video itself, asked for by a tap on its poster: from the cache, else its server. */
	cellVideo(cell: SweepCell, output: number): Promise<Result<string>> {
		return this.readOnce(this.videos, cell, output, 'video', async (sweep) => {
			const video = await workerApi().sweepCellVideo({ id: sweep.id, cell: cell.index, output });
			if (!video) return fail(appError('not-found', 'This video is no longer on this device or its server.'));
			if (this.disposed) return fail(appError('cancelled', 'The page that asked for this video is gone.'));
			return ok(URL.createObjectURL(video));
		});
	}

	/** One read per cell output while it succeeds (a failure is asked again next time), kept in `reads`. */
	private readOnce<T>(
		reads: Map<string, Promise<Result<T>>>,
		cell: SweepCell,
		output: number,
		what: 'output' | 'video',
		read: (sweep: SweepRecord) => Promise<Result<T>>
	): Promise<Result<T>> {
		const sweep = this.sweep;
		if (!sweep || !cell.runId || output < 0) return Promise.resolve(fail(appError('not-found', `This cell has no ${what} to show.`)));
		const key = `${cell.index}:${cell.runId}:${output}`;
		let pending = reads.get(key);
		if (!pending) {
			pending = read(sweep).catch((error: unknown) => fail(appError('unknown', `This ${what} could not be read: ${String(error)}`)));
			void pending.then((r) => !r.ok && reads.delete(key));
			reads.set(key, pending);
		}
		return pending;
	}

	async act(action: SweepAction): Promise<void> {
		if (!this.sweep) return;
		const after = await workerApi().sweepAction({ id: this.sweep.id, action });
		if (after) this.sweep = keepUnchanged(this.sweep, after);
	}

	togglePick(index: number): void {
		if (this.picked.has(index)) this.picked.delete(index);
		else {
			if (this.picked.size >= 2) this.picked.delete([...this.picked][0]!);
			this.picked.add(index);
		}
	}

	/** Saves the sweep as a CSV or JSON file: one row per cell, with what its run says (`factsOf`). */
	download(kind: 'csv' | 'json', factsOf: (cell: SweepCell) => CellRunFacts | undefined): void {
		const sweep = this.sweep;
		if (!sweep) return;
		const rows = cellRows(sweep, factsOf);
		const text = kind === 'csv' ? sweepCsv(sweep, rows) : sweepJson(sweep, rows);
		this.save(new Blob([text], { type: kind === 'csv' ? 'text/csv' : 'application/json' }), kind);
	}

	pictureProblem = $state<string | null>(null);
	pictureBusy = $state(false);

	/** Saves the grid as one PNG, drawn in the worker; dropping it on Workflows reopens this sweep. */
	async downloadPicture(): Promise<void> {
		const sweep = this.sweep;
		if (!sweep) return;
		this.pictureBusy = true;
		this.pictureProblem = null;
		try {
			const picture = await workerApi().sweepPicture({ id: sweep.id });
			if (!picture.ok) return void (this.pictureProblem = picture.error.message);
			this.save(picture.value, 'png');
		} finally {
			this.pictureBusy = false;
		}
	}

	private save(blob: Blob, extension: string): void {
		const sweep = this.sweep;
		if (!sweep) return;
		const url = URL.createObjectURL(blob);
		const a = document.createElement('a');
		a.href = url;
		a.download = `sweep-${sweep.title.replace(/[^\w.-]+/g, '-').slice(0, 40)}-${sweep.id.slice(0, 8)}.${extension}`;
		a.click();
		setTimeout(() => URL.revokeObjectURL(url), 10_000);
	}

	/** The grid's output choices from the sources the cells' runs have: a model's asset paths as they are, a workflow's nodes by title. */
	outputChoices(sources: Iterable<string>): OutputChoice[] {
		const sweep = this.sweep;
		if (!sweep) return [];
		return outputChoices(sources, (source) => (sweep.model ? source : nodeLabel(sweep.base, source)));
	}

	/** Each cell's words, made once per sweep: a cell's values never change, and the grid asks on every update. */
	private cellWords = new Map<number, string>();
	private wordsOf: string | null = null;

	/** The values a cell sets, as its caption: "seed 2, cfg 6". */
	valuesOf(cell: SweepCell): string {
		const sweep = this.sweep;
		if (!sweep) return '';
		if (this.wordsOf !== sweep.id) [this.cellWords, this.wordsOf] = [new Map(), sweep.id];
		let words = this.cellWords.get(cell.index);
		if (words === undefined) {
			words = sweep.axes.map((a, i) => `${a.label.split(' · ').at(-1)} ${valueWords(cell.values[i] ?? '')}`).join(', ');
			this.cellWords.set(cell.index, words);
		}
		return words;
	}
}

/**
 * The new record with each cell that did not change kept as the object the page already holds, so
 * the grid updates the cells that moved and not all 400 (every message from the worker is a copy).
 */
export function keepUnchanged(held: SweepRecord | null, next: SweepRecord): SweepRecord {
	if (!held || held.id !== next.id || held.cells.length !== next.cells.length) return next;
	let same = true;
	const cells = next.cells.map((cell, i) => {
		const old = held.cells[i]!;
		const unchanged =
			old.status === cell.status && old.runId === cell.runId && old.promptId === cell.promptId && old.attempts === cell.attempts;
		if (!unchanged) same = false;
		return unchanged ? old : cell;
	});
	return same && sameRecord(held, next) ? held : { ...next, cells };
}

function sameRecord(a: SweepRecord, b: SweepRecord): boolean {
	return (
		a.status === b.status &&
		a.waitUntil === b.waitUntil &&
		a.lastProblem === b.lastProblem &&
		a.finishedAt === b.finishedAt &&
		a.shownSource === b.shownSource
	);
}
