/**
 * Runs inside the benchmark's page (bundled by `search.bench.ts` with esbuild): makes the synthetic
 * runs there and writes them as the app's worker saves them (record, then the timeline entry with
 * the search text folded in), so 100,000 runs need not cross the DevTools protocol; and times saving
 * a run with and without its search text in the entry. No chunks of texts are written: the app
 * makes those itself after a search, as it would for runs saved one by one.
 */
import { modelEntry, workflowEntry } from '../../src/lib/core/rules/run-entry';
import { MODEL_RUN_KEY, WORKFLOW_RUN_KEY } from '../../src/lib/core/protocol/storage-keys';
import type { AnyRun } from '../../src/lib/core/protocol/run-kernel';
import { searchDoc } from '../../src/lib/timeline/rules/search-doc';
import { storedEntry } from '../../src/lib/core/rules/timeline-record';
import { timelineKey } from '../../src/lib/timeline/worker/timeline-service';
import { syntheticRunStream } from './synthetic-runs';

function openDb(): Promise<IDBDatabase> {
	return new Promise((resolve, reject) => {
		const open = indexedDB.open('runboard');
		open.onsuccess = () => resolve(open.result);
		open.onerror = () => reject(open.error);
	});
}

function put(db: IDBDatabase, rows: Array<[string, unknown]>): Promise<void> {
	return new Promise((resolve, reject) => {
		const tx = db.transaction('kv', 'readwrite');
		for (const [key, value] of rows) tx.objectStore('kv').put(value, key);
		tx.oncomplete = () => resolve();
		tx.onerror = () => reject(tx.error);
	});
}

const recordKey = (run: AnyRun) => (run.kind === 'workflow' ? WORKFLOW_RUN_KEY : MODEL_RUN_KEY) + run.id;
const entryOf = (run: AnyRun) => (run.kind === 'workflow' ? workflowEntry(run) : modelEntry(run));

export async function seed(count: number): Promise<void> {
	const db = await openDb();
	let batch: Array<[string, unknown]> = [];
	for (const run of syntheticRunStream(count)) {
		const entry = entryOf(run);
		const key = timelineKey(entry);
		batch.push([recordKey(run), run], [key, storedEntry(entry, searchDoc(run))]);
		if (batch.length >= 4000) {
			await put(db, batch);
			batch = [];
		}
	}
	if (batch.length) await put(db, batch);
	db.close();
}

/** Median ms per run saved: the record, then its entry (as the app does), without and with the search text in the entry. */
export async function saveCost(count: number): Promise<{ without: number; withText: number }> {
	const db = await openDb();
	const rows = [...syntheticRunStream(count)].map((run) => {
		const entry = entryOf(run);
		const key = timelineKey(entry);
		return { run, key, entry, doc: searchDoc(run) };
	});
	const pass = async (withText: boolean, tag: string) => {
		const start = performance.now();
		for (const r of rows) {
			await put(db, [[`${recordKey(r.run)}-bench-${tag}`, r.run]]);
			const entryKey = `${r.key}-bench-${tag}`;
			await put(db, [[entryKey, withText ? storedEntry(r.entry, r.doc) : r.entry]]);
		}
		return performance.now() - start;
	};
	const times = { without: [] as number[], withText: [] as number[] };
	// Alternating passes, so the machine's load falls on both alike.
	for (let i = 0; i < 6; i++) {
		times.without.push(await pass(false, `a${i}`));
		times.withText.push(await pass(true, `b${i}`));
	}
	db.close();
	const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
	return { without: median(times.without) / rows.length, withText: median(times.withText) / rows.length };
}
