/**
 * Node definitions served by `GET /api/object_info`, in ComfyUI's real format: each input is
 * `[TYPE, {options}]` (or a list of choices, the older combo form), plus `output`, `output_name`,
 * `output_node`, `category`, `display_name`, and `api_node` for partner nodes. The core nodes are
 * ComfyUI's own (core-nodes.generated.ts), their file lists filled from the model shelf and the
 * uploaded inputs; the two partner nodes are written here.
 */
import { CORE_NODES, FILE_LISTS } from './core-nodes.generated';
import { shelfFolder, type InputKind } from './model-shelf';

export type { InputSpec, NodeDefinition } from './node-definition';
import type { InputSpec, NodeDefinition } from './node-definition';

export const UPSCALE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];
export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '3:2', '2:3', '5:4', '4:5', '21:9', '9:21'];
export const STYLE_PRESETS = ['None', 'photographic', 'digital-art', 'cinematic', 'anime', 'pixel-art'];
const PARTNER_HIDDEN = { auth_token_comfy_org: 'AUTH_TOKEN_COMFY_ORG', api_key_comfy_org: 'API_KEY_COMFY_ORG', unique_id: 'UNIQUE_ID' };

const int = (def: number, min: number, max: number, more: Record<string, unknown> = {}): InputSpec => [
	'INT',
	{ default: def, min, max, step: 1, ...more }
];

/** A partner node as ComfyUI's comfy_api_nodes serve one. */
function node(
	name: string,
	display_name: string,
	category: string,
	required: Record<string, InputSpec>,
	outputs: Array<[string, string]>,
	extra: Partial<NodeDefinition> & { input: NodeDefinition['input'] }
): NodeDefinition {
	return {
		input: { ...extra.input, required },
		input_order: {
			required: Object.keys(required),
			...(extra.input.optional ? { optional: Object.keys(extra.input.optional) } : {})
		},
		output: outputs.map(([t]) => t),
		output_is_list: outputs.map(() => false),
		output_name: outputs.map(([, n]) => n),
		name,
		display_name,
		description: extra.description ?? '',
		python_module: 'comfy_api_nodes.nodes_runboard',
		category,
		output_node: false,
		api_node: true
	};
}

/** Input files by kind (LoadImage's, LoadAudio's, ... combo lists); `image` is all most callers need. */
export type InputFiles = Partial<Record<InputKind, string[]>>;

function withFileLists(name: string, definition: NodeDefinition, inputs: InputFiles): NodeDefinition {
	const lists = FILE_LISTS[name];
	if (!lists) return definition;
	const fill = (section: Record<string, InputSpec> | undefined) => {
		if (!section) return section;
		const out: Record<string, InputSpec> = { ...section };
		for (const [inputName, source] of Object.entries(lists)) {
			const spec = out[inputName];
			if (!spec) continue;
			const files = 'folder' in source ? [...shelfFolder(source.folder)] : (inputs[source.input] ?? []);
			const [type, options] = spec;
			if (Array.isArray(type)) out[inputName] = [[...files, ...type], ...(options ? [options] : [])] as InputSpec;
			else if (options && Array.isArray(options['options']))
				out[inputName] = [type, { ...options, options: [...files, ...(options['options'] as string[])] }];
		}
		return out;
	};
	return {
		...definition,
		input: { ...definition.input, required: fill(definition.input.required)!, optional: fill(definition.input.optional) }
	};
}

/** Every node type served: ComfyUI's core set and the partner nodes; `images` are LoadImage's choices. */
export function nodeDefinitions(images: string[], more: InputFiles = {}): Record<string, NodeDefinition> {
	const inputs: InputFiles = { ...more, image: images };
	const out: Record<string, NodeDefinition> = {};
	for (const [name, definition] of Object.entries(CORE_NODES)) out[name] = withFileLists(name, definition, inputs);
	return { ...out, ...PARTNER_NODES };
}

const PARTNER_NODES: Record<string, NodeDefinition> = {
	StabilityStableImageUltraNode: node(
		'StabilityStableImageUltraNode',
		'Stability AI Stable Image Ultra',
		'api node/image/Stability AI',
		{
			prompt: ['STRING', { multiline: true, default: '' }],
			aspect_ratio: [ASPECT_RATIOS, { default: '1:1' }],
			style_preset: [STYLE_PRESETS, { default: 'None' }],
			seed: int(0, 0, 4294967294, { control_after_generate: true })
		},
		[['IMAGE', 'IMAGE']],
		{
			api_node: true,
			input: { required: {}, optional: { negative_prompt: ['STRING', { multiline: true, default: '' }] }, hidden: PARTNER_HIDDEN },
			description: 'Partner node: generates an image through an external service (billed in credits).'
		}
	),
	StabilityTextToAudio: node(
		'StabilityTextToAudio',
		'Stability AI Text To Audio',
		'api node/audio/Stability AI',
		{
			model: [['stable-audio-2.5'], {}],
			prompt: ['STRING', { multiline: true, default: '' }],
			duration: int(10, 1, 190),
			seed: int(0, 0, 4294967294, { control_after_generate: true }),
			steps: int(8, 4, 8)
		},
		[['AUDIO', 'AUDIO']],
		{
			api_node: true,
			input: { required: {}, hidden: PARTNER_HIDDEN },
			description: 'Partner node: generates audio through an external service (billed in credits).'
		}
	)
};

export type NodeDefinitions = ReturnType<typeof nodeDefinitions>;
