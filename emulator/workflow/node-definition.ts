/** One node type as `GET /api/object_info` describes it, in ComfyUI's format. */
export type InputSpec = [string | string[], Record<string, unknown>?] | [string | string[]];

export interface NodeDefinition {
	input: { required: Record<string, InputSpec>; optional?: Record<string, InputSpec>; hidden?: Record<string, unknown> };
	input_order?: { required: string[]; optional?: string[]; hidden?: string[] };
	output: string[];
	output_is_list: boolean[];
	output_name: string[];
	name: string;
	display_name: string | null;
	description: string;
	python_module: string;
	category: string;
	output_node: boolean;
	api_node?: boolean;
	deprecated?: boolean;
	experimental?: boolean;
}
