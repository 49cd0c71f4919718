/** Saved workflows: a name, the API-format workflow, and a thumbnail of its last output. */
import type { ApiPrompt } from '../../wire/workflow-api';
import type { KeyValueStore } from '../kv-store';

export interface SavedWorkflow {
	id: string;
	name: string;
	prompt: ApiPrompt;
	createdAt: number;
	updatedAt: number;
	thumbnail?: Blob;
}

import { SAVED_WORKFLOW_KEY as WORKFLOW } from '../../domain/storage-keys';

export class LibraryRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async list(): Promise<SavedWorkflow[]> {
		return (await this.kv.entries<SavedWorkflow>(WORKFLOW)).map(([, w]) => w).sort((a, b) => b.updatedAt - a.updatedAt);
	}

	get(id: string): Promise<SavedWorkflow | undefined> {
		return this.kv.get<SavedWorkflow>(WORKFLOW + id);
	}

	put(workflow: SavedWorkflow): Promise<void> {
		return this.kv.set(WORKFLOW + workflow.id, workflow);
	}

	remove(id: string): Promise<void> {
		return this.kv.delete(WORKFLOW + id);
	}
}
