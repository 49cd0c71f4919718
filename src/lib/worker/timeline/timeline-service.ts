/**
 * The Runs timeline's index: one compact entry per run under `tl:<id>`, so the list of ten thousand
 * runs reads small records only. It follows every save (through the events saves emit) and repairs
 * itself from the full records when they were written some other way (an import, an older version).
 */
import { modelEntry, workflowEntry, type TimelineEntry } from '../../domain/timeline';
import type { ModelRun } from '../../domain/model-run';
import type { WorkerContext } from '../context';
import { migrateRun } from '../workflows/runs-repo';

export const TIMELINE_KEY = 'tl:';
const SOURCES = [
	{ prefix: 'run:', entry: (value: unknown) => (migrateRun(value) ? workflowEntry(migrateRun(value)!) : undefined) },
	{ prefix: 'modelrun:', entry: (value: unknown) => (isModelRun(value) ? modelEntry(value) : undefined) }
] as const;

function isModelRun(value: unknown): value is ModelRun {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { kind?: unknown }).kind === 'model' &&
		typeof (value as { id?: unknown }).id === 'string'
	);
}

/** Fields whose change is worth a write; progress ticks are not. */
const signature = (e: TimelineEntry) => `${e.status}|${e.title}|${e.thumbnail}|${e.durationMs}|${e.costCents}|${e.seed}`;

export interface TimelineApi {
	timeline(input: Record<string, never>): Promise<TimelineEntry[]>;
}

export class TimelineService {
	private readonly written = new Map<string, string>();

	constructor(private readonly ctx: WorkerContext) {
		ctx.onEmit((event) => {
			if (event.type === 'run') void this.put(workflowEntry(event.run));
			else if (event.type === 'model-run') void this.put(modelEntry(event.run));
			else if (event.type === 'run-deleted') void this.remove(event.id);
		});
	}

	api(): TimelineApi {
		return { timeline: () => this.timeline() };
	}

	private async put(entry: TimelineEntry): Promise<void> {
		const sig = signature(entry);
		if (this.written.get(entry.id) === sig) return;
		this.written.set(entry.id, sig);
		await this.ctx.kv.set(TIMELINE_KEY + entry.id, entry);
	}

	private async remove(id: string): Promise<void> {
		this.written.delete(id);
		await this.ctx.kv.delete(TIMELINE_KEY + id);
	}

	async timeline(): Promise<TimelineEntry[]> {
		await this.repair();
		return (await this.ctx.kv.entries<TimelineEntry>(TIMELINE_KEY)).map(([, e]) => e).sort((a, b) => b.createdAt - a.createdAt);
	}

	/** Adds entries for runs that have none and drops entries whose run is gone: keys only, unless something is missing. */
	private async repair(): Promise<void> {
		const indexed = new Set((await this.ctx.kv.keys(TIMELINE_KEY)).map((k) => k.slice(TIMELINE_KEY.length)));
		const present = new Set<string>();
		for (const source of SOURCES) {
			for (const key of await this.ctx.kv.keys(source.prefix)) {
				const id = key.slice(source.prefix.length);
				present.add(id);
				if (indexed.has(id)) continue;
				const entry = source.entry(await this.ctx.kv.get(key));
				if (entry) await this.put(entry);
			}
		}
		for (const id of indexed) if (!present.has(id)) await this.remove(id);
	}
}
