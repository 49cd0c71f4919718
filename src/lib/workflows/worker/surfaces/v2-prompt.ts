/** The glue between a v1-shaped prompt and the v2 jobs API: asset references out, node errors back. */
import type { ApiPrompt, NodeErrors } from '../../protocol/workflow-api';
import type { V2AssetReference } from '../../protocol/workflow-v2';
import { parseV2NodeErrors, type V2Envelope } from '../../protocol/workflow-v2-parse';
import { ASSET_NAME_PREFIX } from '../../rules/v2-job-mapping';

/** The prompt with every uploaded-asset name turned into a `core/ASSET` reference (the v2 file input). */
export function withAssetReferences(prompt: ApiPrompt): Record<string, unknown> {
	// Keys are node ids from the user's workflow: a null-prototype object, so "__proto__" stays an own key.
	const out = Object.create(null) as Record<string, unknown>;
	for (const [id, node] of Object.entries(prompt)) {
		// Input names too: an input named "__proto__" would otherwise set the prototype and leave the body.
		const inputs = Object.create(null) as Record<string, unknown>;
		for (const [name, value] of Object.entries(node.inputs)) {
			inputs[name] =
				typeof value === 'string' && value.startsWith(ASSET_NAME_PREFIX)
					? ({ __type: 'core/ASSET', info: { id: value.slice(ASSET_NAME_PREFIX.length) } } satisfies V2AssetReference)
					: value;
		}
		out[id] = { ...node, inputs };
	}
	return out;
}

/** v2 node errors (either dialect) in the shape the form shows at its fields, as v1's. */
export function toNodeErrors(details: V2Envelope['details'], prompt: ApiPrompt): NodeErrors {
	const out = Object.create(null) as NodeErrors;
	for (const [nodeId, reasons] of parseV2NodeErrors(details)) {
		out[nodeId] = {
			class_type: prompt[nodeId]?.class_type ?? '',
			dependent_outputs: [],
			errors: reasons.map((r) => ({
				type: 'invalid',
				// The reason is whole already (ComfyUI's message and details joined): no details to append.
				message: r.reason,
				details: '',
				extra_info: r.field ? { input_name: r.field } : {}
			}))
		};
	}
	return out;
}
