/** Run records and cached output bytes in the worker's store. */
import { RUN_SCHEMA_VERSION, type WorkflowRun } from '../../domain/run-record';
import type { KeyValueStore } from '../kv-store';

const RUN = 'run:';
const OUTPUT = 'output:';

/** Migrations from each older schema version to the next; none yet beyond version 1. */
const MIGRATIONS: Record<number, (record: Record<string, unknown>) => Record<string, unknown>> = {};

export function migrateRun(record: unknown): WorkflowRun | undefined {
	if (typeof record !== 'object' || record === null) return undefined;
	let current = record as Record<string, unknown>;
	let version = typeof current['schemaVersion'] === 'number' ? current['schemaVersion'] : 0;
	while (version < RUN_SCHEMA_VERSION) {
		const step = MIGRATIONS[version];
		if (!step) return undefined;
		current = step(current);
		version++;
	}
	return current['kind'] === 'workflow' ? (current as unknown as WorkflowRun) : undefined;
}

export class RunsRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async list(): Promise<WorkflowRun[]> {
		const rows = await this.kv.entries<unknown>(RUN);
		return rows
			.map(([, r]) => migrateRun(r))
			.filter((r): r is WorkflowRun => r !== undefined)
			.sort((a, b) => b.createdAt - a.createdAt);
	}

	async get(id: string): Promise<WorkflowRun | undefined> {
		return migrateRun(await this.kv.get(RUN + id));
	}

	put(run: WorkflowRun): Promise<void> {
		return this.kv.set(RUN + run.id, run);
	}

	async remove(id: string): Promise<void> {
		await this.kv.delete(RUN + id);
		for (const key of await this.kv.keys(`${OUTPUT}${id}:`)) await this.kv.delete(key);
	}

	output(runId: string, index: number): Promise<Blob | undefined> {
		return this.kv.get<Blob>(`${OUTPUT}${runId}:${index}`);
	}

	putOutput(runId: string, index: number, blob: Blob): Promise<void> {
		return this.kv.set(`${OUTPUT}${runId}:${index}`, blob);
	}
}
