/** Saved workflows and the examples offered beside them. */
import { snapshot } from '$lib/client/snapshot.svelte';
import type { ImportResult } from '$lib/domain/workflow-import';
import type { ApiPrompt } from '$lib/wire/workflow-api';
import type { SavedWorkflow } from '$lib/worker/workflows/api';
import { workerApi } from '$lib/client/worker-bridge.svelte';

export class WorkflowLibraryStore {
	workflows = $state<SavedWorkflow[]>([]);
	loaded = $state(false);

	async load(): Promise<void> {
		this.workflows = await workerApi().listWorkflows({});
		this.loaded = true;
	}

	async save(input: { id?: string; name: string; prompt: ApiPrompt }): Promise<SavedWorkflow> {
		const saved = await workerApi().saveWorkflow(snapshot(input));
		await this.load();
		return saved;
	}

	async duplicate(id: string): Promise<SavedWorkflow | null> {
		const copy = await workerApi().duplicateWorkflow({ id });
		await this.load();
		return copy;
	}

	async remove(id: string): Promise<void> {
		await workerApi().deleteWorkflow({ id });
		await this.load();
	}

	importFile(file: File): Promise<ImportResult> {
		return workerApi().importFile({ file });
	}
}

export const workflowLibrary = new WorkflowLibraryStore();
