/**
 * The input files a workflow names (an uploaded picture, sound or video): the values of inputs its
 * definitions mark for upload. A run sent to another member than the one whose form picked them
 * takes them along. Pure.
 */
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { NodeDefinitions } from '../../workflows';

export interface InputFileUse {
	nodeId: string;
	input: string;
	name: string;
}

const UPLOAD_FLAGS = ['image_upload', 'video_upload', 'audio_upload', 'animated_image_upload'];

export function inputFilesOf(prompt: ApiPrompt, nodes: NodeDefinitions): InputFileUse[] {
	const out: InputFileUse[] = [];
	for (const [nodeId, node] of Object.entries(prompt)) {
		const definition = Object.hasOwn(nodes, node.class_type) ? nodes[node.class_type] : undefined;
		if (!definition) continue;
		for (const input of definition.inputs) {
			if (!UPLOAD_FLAGS.some((flag) => input.options[flag] === true) || !Object.hasOwn(node.inputs, input.name)) continue;
			const value = node.inputs[input.name];
			if (typeof value === 'string' && value !== '') out.push({ nodeId, input: input.name, name: value });
		}
	}
	return out;
}

/** The workflow with some inputs' values replaced (model names, file names as the member knows them). */
export function withInputValues(prompt: ApiPrompt, changes: ReadonlyArray<{ nodeId: string; input: string; to: string }>): ApiPrompt {
	if (changes.length === 0) return prompt;
	const next = structuredClone(prompt);
	for (const { nodeId, input, to } of changes) if (Object.hasOwn(next, nodeId)) next[nodeId]!.inputs[input] = to;
	return next;
}
