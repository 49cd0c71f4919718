/** Saved workflows and the examples offered beside them. */
import { snapshot } from '$lib/core/state/snapshot.svelte';
import type { ImportResult } from '$lib/workflows/rules/workflow-import';
import type { SavedWorkflow, SaveWorkflowInput } from '$lib/workflows/protocol/api';
import { workerApi } from '$lib/core/state/worker-bridge.svelte';

export class WorkflowLibraryStore {
	workflows = $state<SavedWorkflow[]>([]);
	loaded = $state(false);

	async load(): Promise<void> {
		this.workflows = await workerApi().listWorkflows({});
		this.loaded = true;
	}

	async save(input: SaveWorkflowInput): Promise<SavedWorkflow> {
		// JsonObject is too deep for the snapshot's type; the value is the same plain object.
		const saved = await workerApi().saveWorkflow(snapshot(input as unknown) as SaveWorkflowInput);
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

	importFile(file: File, profileId: string | null): Promise<ImportResult> {
		return workerApi().importFile({ file, profileId });
	}

	/** Whether this device has the sweep a dropped grid picture names. */
	async hasSweep(id: string): Promise<boolean> {
		return (await workerApi().getSweep({ id })) !== null;
	}

	importText(text: string, profileId: string | null): Promise<ImportResult> {
		return workerApi().importText({ text, profileId });
	}
}

export const workflowLibrary = new WorkflowLibraryStore();
