/**
 * The object_info the converter tests use: the emulator's node set (ComfyUI's real definitions of
 * those nodes) plus a few definitions shaped like real ones, for cases the emulator's set lacks.
 */
import { nodeDefinitions, type NodeDefinition } from '../../../../../emulator/workflow/nodes';
import { validatePrompt, type ValidationResult } from '../../../../../emulator/workflow/validate';
import { parseObjectInfo, type NodeDefinitions } from '../../protocol/object-info';
import type { Json } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';

function extra(
	name: string,
	required: NodeDefinition['input']['required'],
	output: string[],
	optional?: NodeDefinition['input']['optional']
): NodeDefinition {
	return {
		input: { required, ...(optional ? { optional } : {}) },
		output,
		output_is_list: output.map(() => false),
		output_name: output,
		name,
		display_name: name,
		description: '',
		python_module: 'custom_nodes.fixture',
		category: 'fixture',
		output_node: false
	};
}

export const FIXTURE_IMAGES = ['example.png'];

/** Raw object_info JSON, as `GET /api/object_info` serves it. */
export function fixtureObjectInfo(): Record<string, NodeDefinition> {
	const info: Record<string, NodeDefinition> = Object.assign(
		Object.create(null) as Record<string, NodeDefinition>,
		nodeDefinitions(FIXTURE_IMAGES)
	);
	Object.assign(info, {
		// ComfyUI's comfy_extras/nodes_primitive.py
		PrimitiveInt: extra(
			'PrimitiveInt',
			{ value: ['INT', { min: -9007199254740991, max: 9007199254740991, control_after_generate: true }] },
			['INT']
		),
		// A noise_seed without the option (control by name), a seed with it turned off, a combo with control.
		NoiseSeeds: extra(
			'NoiseSeeds',
			{
				noise_seed: ['INT', { default: 0, min: 0, max: 1000000 }],
				seed: ['INT', { default: 0, min: 0, max: 1000000, control_after_generate: false }],
				sampler: [['euler', 'heun', 'ddim'], { control_after_generate: true }],
				strength: ['FLOAT', { default: 1, min: 0, max: 10 }]
			},
			['INT']
		),
		// A multi-select combo: its value is a list, sent as {"__value__": [...]}.
		TagPicker: extra('TagPicker', { tags: ['COMBO', { options: ['red', 'green', 'blue'], multi_select: true }], image: ['IMAGE', {}] }, [
			'IMAGE'
		]),
		// The output's type (IMAGE) does not fit input 0 (MASK): a bypass passes input 1 through.
		MaskThenImage: extra('MaskThenImage', { mask: ['MASK', {}], image: ['IMAGE', {}] }, ['IMAGE'])
	});
	return info;
}

export function fixtureDefinitions(): NodeDefinitions {
	const parsed = parseObjectInfo(JSON.parse(JSON.stringify(fixtureObjectInfo())) as Json);
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.nodes;
}

/** The emulator's own validation (ComfyUI's validate_prompt) of a prompt as it is sent. */
export function validateAgainstFixture(prompt: ApiPrompt): ValidationResult {
	return validatePrompt(JSON.parse(JSON.stringify(prompt)), fixtureObjectInfo());
}
