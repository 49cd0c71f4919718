/**
 * The pictures of a sweep's cells: the output each grid cell shows, its kept thumbnail (or its
 * video's poster), and the image the exported picture draws, all by the output the person chose for
 * the grid (`rules/cell-pictures.ts`). Outputs follow the app's one cache (workflow outputs under
 * `output:`, model results under `models:bytes:`), read through the ports; thumbnails and posters are
 * made here, one at a time, so 400 cells ending together do not hold the worker up.
 */
import type { Result } from '../../core/protocol/errors';
import { isQuotaError } from '../../core/worker/quota';
import { makeThumbnail } from '../../core/worker/thumbnail';
import { makePoster } from '../../core/worker/video-poster';
import type { KeyValueStore } from '../../core/worker/kv-store';
import type { CellPicture, SweepCell, SweepHolding, SweepRecord } from '../protocol/sweep';
import { keptPicture, pictureIndex, type CellOutput } from '../rules/cell-pictures';
import { CellThumbnails } from './cell-thumbnails';
import type { SweepModelPort } from './model-port';
import type { SweepRunPort } from './run-port';

interface RunOutput extends CellOutput {
	/** A model asset's saved bytes and their type. */
	bytesKey?: string;
	mime?: string;
}

export class CellPictures {
	readonly thumbnails: CellThumbnails;
	/** Thumbnails are made one after another. */
	private queue: Promise<unknown> = Promise.resolve();
	/** Thumbnails asked for and not made yet, so a run's every event does not ask again. */
	private readonly asked = new Map<string, Promise<void>>();

	constructor(
		kv: KeyValueStore,
		private readonly runs: SweepRunPort,
		private readonly models: SweepModelPort | null,
		private readonly thumbnailOf: (image: Blob) => Promise<Result<Blob>> = makeThumbnail,
		private readonly posterOf: (video: Blob) => Promise<Result<Blob>> = makePoster
	) {
		this.thumbnails = new CellThumbnails(kv);
	}

	/**
	 * Keeps a thumbnail of the cell's shown output (a poster of a video, or the note of why it has
	 * none), after the ones asked before. With `fetch`, an
	 * output not in the cache is read from the server (and so cached, as every finished run's are);
	 * without, only a cached one is used (a new choice of output does not fetch back what was freed).
	 */
	keep(sweep: SweepRecord, cell: SweepCell, fetch: boolean): Promise<void> {
		const runId = cell.runId;
		const key = `${sweep.id}:${cell.index}:${runId}:${sweep.shownSource ?? ''}`;
		if (!runId) return Promise.resolve();
		const asked = this.asked.get(key);
		if (asked) return asked;
		const job = this.queue.then(() => this.make(sweep, cell.index, runId, fetch)).finally(() => this.asked.delete(key));
		this.asked.set(key, job);
		this.queue = job.catch(() => undefined);
		return job;
	}

	private async make(sweep: SweepRecord, cell: number, runId: string, fetch: boolean): Promise<void> {
		const outputs = await this.outputsOf(sweep, runId);
		const kept = outputs ? keptPicture(outputs, sweep.shownSource ?? null) : null;
		if (!outputs || !kept) return;
		const output = kept.output;
		const held = await this.thumbnails.get(sweep.id, cell);
		if (held?.runId === runId && held.output === output) return;
		const bytes = (await this.cached(sweep, runId, output, outputs)) ?? (fetch ? await this.fetched(sweep, runId, output) : null);
		if (!bytes) return;
		const poster = kept.as === 'poster';
		const picture = poster ? await this.posterOf(bytes) : await this.thumbnailOf(bytes);
		// A video with no poster keeps why; an image that cannot be read, or a decoder that ran out of time, is tried again next time.
		if (!picture.ok && (!poster || picture.error.kind === 'timeout')) return;
		const record = !picture.ok
			? { runId, output, noPoster: picture.error.message }
			: { runId, output, picture: picture.value, ...(poster ? { poster: true as const } : {}) };
		try {
			await this.thumbnails.put(sweep.id, cell, record);
		} catch (error) {
			// The store has told the person the device is full; the cell shows its output while it is here.
			if (!isQuotaError(error)) throw error;
		}
	}

	/**
	 * What a grid cell shows of its run's output `output`: the output when it is in the cache, else the
	 * cell's thumbnail of it (or its video's poster, or why the video has none), else the output from
	 * the server (a sweep from before thumbnails, or a cell whose thumbnail was freed), then
	 * thumbnailed; null when none is to be had. A cached output costs one read, as it did before
	 * thumbnails: a 400-cell grid asks 400 times as it opens.
	 */
	async cellPicture(sweep: SweepRecord, index: number, output: number): Promise<CellPicture | null> {
		const cell = sweep.cells[index];
		const runId = cell?.runId;
		if (!cell || !runId || output < 0) return null;
		const cached = sweep.model ? await this.cachedModelOutput(sweep, runId, output) : await this.runs.cachedOutput(runId, output);
		if (cached) return { picture: cached, from: 'output' };
		const held = await this.thumbnails.get(sweep.id, index);
		if (held?.runId === runId && held.output === output) {
			return 'picture' in held
				? { picture: held.picture, from: held.poster ? 'poster' : 'thumbnail' }
				: { from: 'no-poster', problem: held.noPoster };
		}
		const fetched = await this.fetched(sweep, runId, output);
		if (!fetched) return null;
		// Kept when it is the output shown (the job decides), so the next free leaves the cell a thumbnail.
		void this.keep(sweep, cell, false);
		return { picture: fetched, from: 'output' };
	}

	/** A cell's video itself, asked for by a tap on its poster: the cached one, else the server's. */
	async cellVideo(sweep: SweepRecord, index: number, output: number): Promise<Blob | null> {
		const runId = sweep.cells[index]?.runId;
		if (!runId || output < 0) return null;
		const cached = sweep.model ? await this.cachedModelOutput(sweep, runId, output) : await this.runs.cachedOutput(runId, output);
		return cached ?? (await this.fetched(sweep, runId, output));
	}

	private async cachedModelOutput(sweep: SweepRecord, runId: string, output: number): Promise<Blob | null> {
		const outputs = await this.outputsOf(sweep, runId);
		return outputs ? this.cached(sweep, runId, output, outputs) : null;
	}

	/**
	 * The image the exported grid picture draws for a cell: a video cell's poster, as the grid shows
	 * it; else its thumbnail when it is of that image (the picture's cells are at most its size), else the output.
	 */
	async pictureImage(sweep: SweepRecord, cell: SweepCell): Promise<Blob | null> {
		const runId = cell.runId;
		const outputs = runId ? await this.outputsOf(sweep, runId) : null;
		if (!runId || !outputs) return null;
		const thumbnail = await this.thumbnails.get(sweep.id, cell.index);
		const kept = keptPicture(outputs, sweep.shownSource ?? null);
		const poster = kept?.as === 'poster' && thumbnail?.runId === runId && thumbnail.output === kept.output && 'picture' in thumbnail;
		if (poster) return thumbnail.picture;
		const output = pictureIndex(outputs, sweep.shownSource ?? null);
		if (output < 0) return null;
		if (thumbnail?.runId === runId && thumbnail.output === output && 'picture' in thumbnail) return thumbnail.picture;
		return (await this.cached(sweep, runId, output, outputs)) ?? (await this.fetched(sweep, runId, output));
	}

	async holding(sweep: SweepRecord): Promise<SweepHolding> {
		return {
			id: sweep.id,
			title: sweep.title,
			cells: sweep.cells.length,
			runIds: sweep.cells.flatMap((c) => (c.runId ? [c.runId] : [])),
			...(await this.thumbnails.held(sweep.id))
		};
	}

	/** A run's outputs as the grid sees them: a workflow run's outputs, a model result's assets. */
	private async outputsOf(sweep: SweepRecord, runId: string): Promise<RunOutput[] | null> {
		if (sweep.model) {
			const run = await this.models?.getRun(runId);
			if (!run) return null;
			return (run.result?.assets ?? []).map((a) => ({
				source: a.path,
				kind: a.kind,
				showable: Boolean(a.bytesKey || a.url),
				...(a.bytesKey ? { bytesKey: a.bytesKey } : {}),
				...(a.mime ? { mime: a.mime } : {})
			}));
		}
		const run = await this.runs.getRun(runId);
		return run ? run.outputs.map((o) => ({ source: o.nodeId, kind: o.kind })) : null;
	}

	/** An output's bytes if this device has them (the cache; nothing is fetched). */
	private async cached(sweep: SweepRecord, runId: string, output: number, outputs: readonly RunOutput[]): Promise<Blob | null> {
		if (!sweep.model) return this.runs.cachedOutput(runId, output);
		const asset = outputs[output];
		const bytes = asset?.bytesKey ? await this.models?.bytes(asset.bytesKey) : null;
		return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type: asset?.mime ?? 'application/octet-stream' }) : null;
	}

	/** A workflow output read from its server (and cached by the workflow feature's rules); a model result is not fetched again. */
	private async fetched(sweep: SweepRecord, runId: string, output: number): Promise<Blob | null> {
		if (sweep.model) return null;
		const bytes = await this.runs.output(runId, output);
		return bytes.ok ? bytes.value : null;
	}
}
