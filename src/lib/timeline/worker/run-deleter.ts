/**
 * What deleting a batch of runs removes: for each finished run its record, its indexes, its cached
 * bytes and its timeline entry. The keys are gathered first and deleted in one transaction, so a
 * reload while a batch is deleted leaves all of it or none of it, never half.
 */
import {
	MODEL_BYTES_KEY,
	MODEL_RUN_KEY,
	OPEN_RUN_KEY,
	RUN_BY_PROMPT_KEY,
	SEARCH_TEXT_KEY,
	STAR_KEY,
	TIMELINE_KEY,
	WORKFLOW_OUTPUT_KEY,
	WORKFLOW_RUN_KEY
} from '../../core/protocol/storage-keys';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { isUnderWay } from '../../core/rules/run-under-way';

/** A run's search text sits under its timeline key's time and id: `tl:<at>:<id>` → `sx:<at>:<id>`. */
export const searchKeyOf = (timelineKey: string) => SEARCH_TEXT_KEY + timelineKey.slice(TIMELINE_KEY.length);

export interface DeletePlan {
	/** Every key to delete, in one transaction. */
	keys: string[];
	/** The runs the keys belong to (a run already gone counts: after the delete it is gone). */
	deleted: string[];
	/** Runs not finished yet, left alone: they are cancelled first, then deleted. */
	kept: string[];
}

/** Only the fields the plan needs, read loosely: a record of another version is still deleted. */
function fieldsOf(value: unknown): { status?: unknown; promptId?: unknown } | undefined {
	return typeof value === 'object' && value !== null ? (value as { status?: unknown; promptId?: unknown }) : undefined;
}

export async function planRunDeletes(
	kv: KeyValueStore,
	ids: readonly string[],
	timelineKeyOf: (id: string) => string | undefined
): Promise<DeletePlan> {
	const plan: DeletePlan = { keys: [], deleted: [], kept: [] };
	for (const id of new Set(ids)) {
		const workflow = fieldsOf(await kv.get(WORKFLOW_RUN_KEY + id));
		const model = fieldsOf(await kv.get(MODEL_RUN_KEY + id));
		if (isUnderWay(workflow?.status) || isUnderWay(model?.status)) {
			plan.kept.push(id);
			continue;
		}
		if (workflow) {
			plan.keys.push(WORKFLOW_RUN_KEY + id, OPEN_RUN_KEY + id, ...(await kv.keys(`${WORKFLOW_OUTPUT_KEY}${id}:`)));
			if (typeof workflow.promptId === 'string') plan.keys.push(RUN_BY_PROMPT_KEY + workflow.promptId);
		}
		if (model) plan.keys.push(MODEL_RUN_KEY + id, ...(await kv.keys(`${MODEL_BYTES_KEY}${id}:`)));
		const entry = timelineKeyOf(id);
		if (entry) plan.keys.push(entry, searchKeyOf(entry));
		plan.keys.push(STAR_KEY + id);
		plan.deleted.push(id);
	}
	return plan;
}
