/** Run records and cached output bytes in the worker's store. */
import { isTerminal, type WorkflowRun } from '../rules/run-record';
import { migrateRun } from '../../core/rules/run-migration';
import type { KeyValueStore, WriteOptions } from '../../core/worker/kv-store';

import {
	OPEN_RUN_KEY as OPEN,
	RUN_BY_PROMPT_KEY as BY_PROMPT,
	WORKFLOW_OUTPUT_KEY as OUTPUT,
	WORKFLOW_RUN_KEY as RUN
} from '../../core/protocol/storage-keys';

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

	/** `required`: the record and its key must reach the device before the run is sent (`WriteOptions`). */
	async put(run: WorkflowRun, options: WriteOptions = {}): Promise<void> {
		await this.kv.set(RUN + run.id, run, options);
		if (run.promptId) await this.kv.set(BY_PROMPT + run.promptId, run.id, options);
		if (isTerminal(run.status)) await this.kv.delete(OPEN + run.id);
		else await this.kv.set(OPEN + run.id, true, options);
	}

	/** The runs not finished yet. */
	async open(): Promise<WorkflowRun[]> {
		const runs: WorkflowRun[] = [];
		for (const key of await this.kv.keys(OPEN)) {
			const run = await this.get(key.slice(OPEN.length));
			if (run && !isTerminal(run.status)) runs.push(run);
			else await this.kv.delete(key);
		}
		return runs;
	}

	async byPromptId(promptId: string): Promise<WorkflowRun | undefined> {
		const id = await this.kv.get<string>(BY_PROMPT + promptId);
		return id ? this.get(id) : undefined;
	}

	async remove(id: string): Promise<void> {
		await this.removeRecord(id, (await this.get(id))?.promptId);
	}

	private async removeRecord(id: string, promptId: string | null | undefined): Promise<void> {
		await this.kv.delete(RUN + id);
		await this.kv.delete(OPEN + id);
		if (promptId) await this.kv.delete(BY_PROMPT + promptId);
		for (const key of await this.kv.keys(`${OUTPUT}${id}:`)) await this.kv.delete(key);
	}

	/** Removes every run of a profile with its cached outputs and indexes; returns the ids removed. */
	async removeProfile(profileId: string): Promise<string[]> {
		const removed: string[] = [];
		// Raw records, not parsed ones: a record of another version still belongs to its profile.
		for (const [key, run] of await this.kv.entries<{ profileId?: string; promptId?: string | null }>(RUN)) {
			if (run.profileId !== profileId) continue;
			const id = key.slice(RUN.length);
			await this.removeRecord(id, run.promptId);
			removed.push(id);
		}
		return removed;
	}

	output(runId: string, index: number): Promise<Blob | undefined> {
		return this.kv.get<Blob>(`${OUTPUT}${runId}:${index}`);
	}

	putOutput(runId: string, index: number, blob: Blob): Promise<void> {
		return this.kv.set(`${OUTPUT}${runId}:${index}`, blob);
	}
}
