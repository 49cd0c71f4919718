/** Export and import of the whole run history, with or without the output bytes. */
import {
	BYTES_PREFIXES,
	fromBase64,
	HISTORY_FORMAT,
	HISTORY_VERSION,
	parseHistoryFile,
	RECORD_PREFIXES,
	toBase64,
	type HistoryFile
} from '../rules/history-file';
import type { Json } from '../../core/protocol/json';
import { WORKFLOW_OUTPUT_KEY } from '../../core/protocol/storage-keys';
import type { WorkerContext } from '../../core/worker/context';
import type { HistoryApi } from '../protocol/api';

export class HistoryService {
	constructor(private readonly ctx: WorkerContext) {}

	api(): HistoryApi {
		return {
			exportHistory: (i) => this.export(i.withBytes, i.ids),
			importHistory: (i) => this.import(i.file)
		};
	}

	/** The whole history, or with `ids` only those runs (a selection in the timeline): the same file, which Import reads. */
	private async export(withBytes: boolean, ids?: string[]): Promise<Blob> {
		const chosen = ids ? new Set(ids) : null;
		const records: HistoryFile['records'] = [];
		for (const prefix of RECORD_PREFIXES)
			for (const [key, value] of await this.ctx.kv.entries<Json>(prefix))
				if (!chosen || chosen.has(key.slice(prefix.length))) records.push({ key, value });
		const bytes: HistoryFile['bytes'] = [];
		if (withBytes) {
			for (const prefix of BYTES_PREFIXES) {
				for (const [key, value] of await this.ctx.kv.entries<unknown>(prefix)) {
					if (chosen && !chosen.has(key.slice(prefix.length, key.lastIndexOf(':')))) continue;
					const blob =
						value instanceof Blob
							? value
							: value instanceof ArrayBuffer || ArrayBuffer.isView(value)
								? new Blob([value as BlobPart])
								: undefined;
					if (blob) bytes.push({ key, type: blob.type, base64: toBase64(new Uint8Array(await blob.arrayBuffer())) });
				}
			}
		}
		const file: HistoryFile = { format: HISTORY_FORMAT, version: HISTORY_VERSION, exportedAt: new Date().toISOString(), records, bytes };
		return new Blob([JSON.stringify(file)], { type: 'application/json' });
	}

	private async import(file: File): Promise<{ ok: true; runs: number; bytes: number; skipped: number } | { ok: false; message: string }> {
		const parsed = parseHistoryFile(await file.text());
		if (!parsed.ok) return parsed;
		let runs = 0;
		let skipped = 0;
		for (const { key, value } of parsed.file.records) {
			if ((await this.ctx.kv.get(key)) !== undefined) {
				skipped++;
				continue;
			}
			await this.ctx.kv.set(key, value);
			runs++;
		}
		let bytes = 0;
		for (const item of parsed.file.bytes) {
			if ((await this.ctx.kv.get(item.key)) !== undefined) continue;
			const data = fromBase64(item.base64);
			if (!data) continue;
			// Workflow outputs are stored as Blobs, model results as Uint8Arrays: keep each as its reader expects.
			await this.ctx.kv.set(item.key, item.key.startsWith(WORKFLOW_OUTPUT_KEY) ? new Blob([data], { type: item.type }) : data);
			bytes++;
		}
		this.ctx.notifyTabs('runs-changed');
		return { ok: true, runs, bytes, skipped };
	}
}
