/**
 * Saved workflows: a name, the API-format workflow, the editor (UI) format it came from when it
 * did, and a thumbnail of its last output. Records before `ui` simply lack it (no version step).
 */
import type { KeyValueStore } from '../../core/worker/kv-store';

export type { SavedWorkflow } from '../protocol/library';
import type { SavedWorkflow } from '../protocol/library';

import { SAVED_WORKFLOW_KEY as WORKFLOW } from '../../core/protocol/storage-keys';

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
