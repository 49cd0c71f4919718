/**
 * Runs inside the benchmark's page (bundled by `search.bench.ts` with esbuild): makes the synthetic
 * runs there and writes them as the app's worker saves them (record, then the timeline entry, with
 * the search text folded in once the run has ended; the newest few are still under way, without),
 * so 100,000 runs need not cross the DevTools protocol; and times saving runs with and without
 * their search texts. No chunks of texts are written: the app makes those itself after a search,
 * as it would for runs saved one by one.
 */
import { modelEntry, workflowEntry } from '../../src/lib/core/rules/run-entry';
import { MODEL_RUN_KEY, WORKFLOW_RUN_KEY } from '../../src/lib/core/protocol/storage-keys';
import type { AnyRun } from '../../src/lib/core/protocol/run-kernel';
import { searchDoc, searchDocHash } from '../../src/lib/timeline/rules/search-doc';
import { storedEntry } from '../../src/lib/core/rules/timeline-record';
import { timelineKey } from '../../src/lib/timeline/worker/timeline-service';
import { syntheticRunStream } from './synthetic-runs';

/** The newest runs seeded are under way (a sweep's cells waiting): their texts are made from their records at the first search. */
export const UNDER_WAY = 50;

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
	let i = 0;
	for (const saved of syntheticRunStream(count)) {
		const underWay = i++ >= count - UNDER_WAY;
		const run = underWay ? ({ ...saved, status: i % 2 ? 'queued' : 'running' } as AnyRun) : saved;
		const entry = entryOf(run);
		batch.push([recordKey(run), run], [timelineKey(entry), underWay ? entry : storedEntry(entry, searchDoc(run))]);
		if (batch.length >= 4000) {
			await put(db, batch);
			batch = [];
		}
	}
	if (batch.length) await put(db, batch);
	db.close();
}

/** Kept, so the hash the app computes at a save is computed here too. */
let hashes = 0;

/** The states a run is saved in, in order, before its end: each save writes its record, then its entry. */
const LIFE = ['submitting', 'queued', 'running'] as const;

/** The mean of the middle 80 %: a stall of the shared machine does not decide it. */
function trimmedMean(xs: number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	const cut = Math.floor(sorted.length / 10);
	const kept = sorted.slice(cut, sorted.length - cut);
	return kept.reduce((sum, x) => sum + x, 0) / kept.length;
}

export interface SaveCost {
	hashes: number;
	/** ms per save over a run's life (submitting, queued, running, its end), without and with the search text. */
	without: number;
	withText: number;
	/** ms of the end's save alone, the one that makes and writes the text. */
	endWithout: number;
	endWithText: number;
}

/**
 * Saves `count` runs through their lives as the app does, each run both ways, in turns (the order
 * swapped run by run, so a busy moment of the machine falls on both alike): without a search text,
 * and with it, made from the run (`searchDoc`, its hash) and written with the entry of its end.
 */
export async function saveCost(count: number): Promise<SaveCost> {
	const db = await openDb();
	const runs = [...syntheticRunStream(count)];
	const life = { without: [] as number[], withText: [] as number[] };
	const end = { without: [] as number[], withText: [] as number[] };
	const saveLife = async (run: AnyRun, withText: boolean) => {
		const suffix = withText ? '-bench-text' : '-bench-plain';
		const start = performance.now();
		let endStart = start;
		for (const status of [...LIFE, run.status]) {
			const ended = status === run.status;
			if (ended) endStart = performance.now();
			const state = { ...run, status } as AnyRun;
			const entry = entryOf(state);
			await put(db, [[recordKey(state) + suffix, state]]);
			let stored: unknown = entry;
			if (withText && ended) {
				const doc = searchDoc(state);
				hashes ^= searchDocHash(doc); // as the app's save does, to know whether the text changed
				stored = storedEntry(entry, doc);
			}
			await put(db, [[timelineKey(entry) + suffix, stored]]);
		}
		const done = performance.now();
		(withText ? life.withText : life.without).push((done - start) / (LIFE.length + 1));
		(withText ? end.withText : end.without).push(done - endStart);
	};
	for (const [i, run] of runs.entries()) {
		const first = i % 2 === 0;
		await saveLife(run, !first);
		await saveLife(run, first);
	}
	db.close();
	return {
		hashes,
		without: trimmedMean(life.without),
		withText: trimmedMean(life.withText),
		endWithout: trimmedMean(end.without),
		endWithText: trimmedMean(end.withText)
	};
}
