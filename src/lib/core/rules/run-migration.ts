/**
 * A stored workflow run read into the record's current shape: the run repository and the timeline's
 * repair read the same records, so they read them the same way. Pure.
 */
import { RUN_SCHEMA_VERSION, type WorkflowRun } from '../protocol/workflow-run';

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
