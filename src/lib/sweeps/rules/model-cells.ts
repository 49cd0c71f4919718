/**
 * A model sweep's cell as the run it sends: which model (the axis of models, else the sweep's own),
 * and that model's body with each other axis's value written at its path. A field a model does not
 * have is left out of its body: the planner offers as axes only fields every picked model has.
 */
import { withValueAt } from '../../fields/rules/field-model';
import type { JsonObject } from '../../core/protocol/json';
import { MODEL_AXIS, type AxisValue, type ModelSweepTarget, type SweepAxis } from '../protocol/sweep';

export interface ModelCellRun {
	modelId: string;
	body: JsonObject;
}

export function modelCellRun(target: ModelSweepTarget, axes: readonly SweepAxis[], values: readonly AxisValue[]): ModelCellRun {
	const modelAxis = axes.findIndex((a) => a.fieldId === MODEL_AXIS);
	const picked = modelAxis >= 0 ? values[modelAxis] : undefined;
	const modelId = typeof picked === 'string' ? picked : target.modelId;
	let body: unknown = structuredClone(target.bodies[modelId] ?? {});
	axes.forEach((axis, i) => {
		if (axis.fieldId === MODEL_AXIS || axis.path.length === 0) return;
		body = withValueAt(body, axis.path, values[i]);
	});
	return { modelId, body: body as JsonObject };
}

/**
 * The bodies of "the same input on several models": each model gets the fields it shares with the
 * form's body (filled once, on the form), and its own fields as given for it (`own`), nothing else.
 */
export function sharedBodies(
	formBody: JsonObject,
	models: ReadonlyArray<{ modelId: string; fields: readonly string[]; own: JsonObject }>
): Record<string, JsonObject> {
	const bodies: Record<string, JsonObject> = Object.create(null);
	for (const { modelId, fields, own } of models) {
		const body: JsonObject = Object.create(null);
		for (const name of fields) {
			if (Object.hasOwn(own, name)) body[name] = own[name]!;
			else if (Object.hasOwn(formBody, name)) body[name] = formBody[name]!;
		}
		bodies[modelId] = body;
	}
	return bodies;
}
