/**
 * What the app keeps on this device and how to make room: the browser's estimate of usage and
 * quota, the saved bytes of run outputs (workflow outputs and model results alike), and removing
 * those of the oldest runs first. Run records themselves are never removed here: a run whose bytes
 * are gone still shows what it was, and says its bytes are no longer on this device.
 */
import type { ModelRun } from '../../core/protocol/model-run';
import type { WorkerContext } from '../../core/worker/context';
import type { StorageApi, StorageStatus } from '../protocol/api';
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
	TIMELINE_KEY,
	WORKFLOW_OUTPUT_KEY as OUTPUT,
	WORKFLOW_RUN_KEY as WORKFLOW_RUN
} from '../../core/protocol/storage-keys';
import { recordBytes, spaceParts, type MeasuredParts } from '../rules/space-parts';
import type { Star } from '../../core/protocol/star';
import { keptByStars } from '../../core/rules/stars';

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
	STAR_KEY
];
const SCHEMA_PREFIXES = [MODEL_SCHEMA_KEY, MODEL_CATALOG_KEY, MODEL_SUMMARIES_KEY, OBJECT_INFO_KEY];

export type { StorageStatus };

interface SavedOutput {
	key: string;
	size: number;
	createdAt: number;
}

export class StorageService {
	constructor(private readonly ctx: WorkerContext) {}

	api(): StorageApi {
		return {
			storageStatus: () => this.status(),
			freeOutputSpace: (i) => this.free(i.bytes)
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
		return (await this.ctx.kv.entries<unknown>(OUTPUT)).map(([key, blob]) => ({
			key,
			size: blob instanceof Blob ? blob.size : 0,
			createdAt: created.get(key.slice(OUTPUT.length).split(':')[0] ?? '') ?? 0
		}));
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
		return {
			usage,
			quota: estimate?.quota ?? null,
			outputs: { count: outputs.length, bytes },
			starred: { count: starred.length, bytes: starred.reduce((n, o) => n + o.size, 0) },
			parts: spaceParts({ ...(await this.measureRecords()), outputs: bytes }, usage)
		};
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
