/**
 * What the app keeps on this device and how to make room: the browser's estimate of usage and
 * quota, the saved bytes of run outputs (workflow outputs and model results alike), and removing
 * those of the oldest runs first. Run records themselves are never removed here: a run whose bytes
 * are gone still shows what it was, and says its bytes are no longer on this device.
 */
import type { ModelRun } from '../../core/protocol/model-run';
import type { WorkerContext } from '../../core/worker/context';
import type { StorageApi, StorageStatus, SweepSpace } from '../protocol/api';
import {
	API_KEY_KEY,
	FILE_HASH_KEY,
	MODEL_BYTES_KEY as BYTES_KEY,
	MODEL_CATALOG_KEY,
	MODEL_INPUTS_KEY,
	MODEL_RUN_KEY,
	MODEL_SCHEMA_KEY,
	MODEL_SPEND_KEY,
	MODEL_SUMMARIES_KEY,
	OBJECT_INFO_KEY,
	OPEN_RUN_KEY,
	PARTNER_KEY_KEY,
	PROFILE_KEY,
	RUN_BY_PROMPT_KEY,
	SAVED_WORKFLOW_KEY,
	SEARCH_CHUNK_KEY,
	SEARCH_TEXT_KEY,
	SETTING_KEY,
	STAR_KEY,
	SWEEP_KEY,
	TIMELINE_KEY,
	WORKFLOW_OUTPUT_KEY as OUTPUT,
	WORKFLOW_RUN_KEY as WORKFLOW_RUN
} from '../../core/protocol/storage-keys';
import { recordBytes, spaceParts, type MeasuredParts } from '../rules/space-parts';
import type { Star } from '../../core/protocol/star';
import { bytesOwner, keptByStars } from '../../core/rules/stars';
import type { SweepHoldings } from './sweep-holdings';

/** Records (no bytes) by prefix; what is under no prefix here is counted in the rest. */
const RECORD_PREFIXES = [
	PROFILE_KEY,
	API_KEY_KEY,
	PARTNER_KEY_KEY,
	SETTING_KEY,
	WORKFLOW_RUN,
	OPEN_RUN_KEY,
	RUN_BY_PROMPT_KEY,
	SAVED_WORKFLOW_KEY,
	FILE_HASH_KEY,
	MODEL_RUN_KEY,
	MODEL_INPUTS_KEY,
	MODEL_SPEND_KEY,
	TIMELINE_KEY,
	SEARCH_TEXT_KEY,
	SEARCH_CHUNK_KEY,
	STAR_KEY,
	SWEEP_KEY
];
const SCHEMA_PREFIXES = [MODEL_SCHEMA_KEY, MODEL_CATALOG_KEY, MODEL_SUMMARIES_KEY, OBJECT_INFO_KEY];

export type { StorageStatus };

interface SavedOutput {
	key: string;
	runId: string;
	size: number;
	createdAt: number;
}

const NO_SWEEPS: SweepHoldings = { list: async () => [], removeThumbnails: async () => ({ count: 0, bytes: 0 }) };

export class StorageService {
	constructor(
		private readonly ctx: WorkerContext,
		private readonly sweeps: SweepHoldings = NO_SWEEPS
	) {}

	api(): StorageApi {
		return {
			storageStatus: () => this.status(),
			freeOutputSpace: (i) => this.free(i.bytes),
			freeSweepSpace: (i) => this.freeSweep(i.id, i.thumbnails)
		};
	}

	private async outputs(): Promise<SavedOutput[]> {
		return [...(await this.workflowOutputs()), ...(await this.modelResults())];
	}

	/** Workflow outputs are Blobs, which IndexedDB hands back without reading their bytes. */
	private async workflowOutputs(): Promise<SavedOutput[]> {
		const created = new Map<string, number>();
		for (const [key, run] of await this.ctx.kv.entries<{ createdAt?: number }>(WORKFLOW_RUN))
			created.set(key.slice(WORKFLOW_RUN.length), run.createdAt ?? 0);
		return (await this.ctx.kv.entries<unknown>(OUTPUT)).map(([key, blob]) => {
			const runId = bytesOwner(key)?.runId ?? '';
			return { key, runId, size: blob instanceof Blob ? blob.size : 0, createdAt: created.get(runId) ?? 0 };
		});
	}

	/** Model result bytes are sized from their run records, so counting them reads no bytes. */
	private async modelResults(): Promise<SavedOutput[]> {
		const known = new Map<string, { size: number; createdAt: number }>();
		for (const [, run] of await this.ctx.kv.entries<Partial<ModelRun>>(MODEL_RUN_KEY)) {
			const createdAt = run.createdAt ?? 0;
			const result = run.result;
			if (result?.bytesKey) known.set(result.bytesKey, { size: result.size ?? 0, createdAt });
			for (const asset of result?.assets ?? []) if (asset.bytesKey) known.set(asset.bytesKey, { size: asset.size ?? 0, createdAt });
		}
		return (await this.ctx.kv.keys(BYTES_KEY)).map((key) => ({
			key,
			runId: bytesOwner(key)?.runId ?? '',
			size: known.get(key)?.size ?? 0,
			createdAt: known.get(key)?.createdAt ?? 0
		}));
	}

	private async stars(): Promise<Map<string, Star>> {
		return new Map((await this.ctx.kv.entries<Star>(STAR_KEY)).map(([, star]) => [star.runId, star]));
	}

	private async status(): Promise<StorageStatus> {
		const estimate = await (globalThis.navigator as { storage?: StorageManager } | undefined)?.storage?.estimate?.().catch(() => undefined);
		const outputs = await this.outputs();
		const bytes = outputs.reduce((n, o) => n + o.size, 0);
		const stars = await this.stars();
		const starred = outputs.filter((o) => keptByStars(o.key, stars));
		const usage = estimate?.usage ?? null;
		const sweeps = await this.sweepSpaces(outputs, stars);
		const records = await this.measureRecords();
		const thumbnails = records.thumbnails + sweeps.reduce((n, s) => n + s.thumbnails.bytes + s.posters.bytes, 0);
		return {
			usage,
			quota: estimate?.quota ?? null,
			outputs: { count: outputs.length, bytes },
			starred: tally(starred),
			parts: spaceParts({ ...records, thumbnails, outputs: bytes }, usage),
			sweeps
		};
	}

	/** What each sweep keeps: the cached outputs of its cells' runs, its thumbnails and its posters. */
	private async sweepSpaces(outputs: SavedOutput[], stars: Map<string, Star>): Promise<SweepSpace[]> {
		const byRun = new Map<string, SavedOutput[]>();
		for (const output of outputs) byRun.set(output.runId, [...(byRun.get(output.runId) ?? []), output]);
		return (await this.sweeps.list()).map((sweep) => {
			const held = sweep.runIds.flatMap((id) => byRun.get(id) ?? []);
			return {
				id: sweep.id,
				title: sweep.title,
				cells: sweep.cells,
				outputs: tally(held),
				starred: tally(held.filter((o) => keptByStars(o.key, stars))),
				thumbnails: sweep.thumbnails,
				posters: sweep.posters
			};
		});
	}

	/** Removes a sweep's cached outputs in one transaction, the starred ones kept, and its thumbnails and posters if asked. */
	private async freeSweep(id: string, thumbnails: boolean): Promise<{ freed: number; removed: number }> {
		const sweep = (await this.sweeps.list()).find((s) => s.id === id);
		if (!sweep) return { freed: 0, removed: 0 };
		const runs = new Set(sweep.runIds);
		const stars = await this.stars();
		const going = (await this.outputs()).filter((o) => runs.has(o.runId) && !keptByStars(o.key, stars));
		await this.ctx.kv.deleteMany(going.map((o) => o.key));
		const freed = going.reduce((n, o) => n + o.size, 0) + (thumbnails ? (await this.sweeps.removeThumbnails(id)).bytes : 0);
		return { freed, removed: going.length };
	}

	/** Records, schemas and workflow thumbnails, sized from what is stored (output bytes are never read). */
	private async measureRecords(): Promise<Omit<MeasuredParts, 'outputs'>> {
		let records = 0;
		let schemas = 0;
		let thumbnails = 0;
		for (const prefix of RECORD_PREFIXES)
			for (const [key, value] of await this.ctx.kv.entries<unknown>(prefix)) {
				records += key.length + recordBytes(value);
				const thumbnail = (value as { thumbnail?: unknown } | null)?.thumbnail;
				if (thumbnail instanceof Blob) thumbnails += thumbnail.size;
			}
		for (const prefix of SCHEMA_PREFIXES)
			for (const [key, value] of await this.ctx.kv.entries<unknown>(prefix)) schemas += key.length + recordBytes(value);
		return { records, schemas, thumbnails };
	}

	/** Starred outputs are never removed: they are what a person chose to keep. */
	private async free(target: number): Promise<{ freed: number; removed: number }> {
		const stars = await this.stars();
		const oldestFirst = (await this.outputs()).filter((o) => !keptByStars(o.key, stars)).sort((a, b) => a.createdAt - b.createdAt);
		let freed = 0;
		let removed = 0;
		for (const output of oldestFirst) {
			if (freed >= target) break;
			await this.ctx.kv.delete(output.key);
			freed += output.size;
			removed++;
		}
		return { freed, removed };
	}
}

function tally(outputs: readonly SavedOutput[]): { count: number; bytes: number } {
	return { count: outputs.length, bytes: outputs.reduce((n, o) => n + o.size, 0) };
}
