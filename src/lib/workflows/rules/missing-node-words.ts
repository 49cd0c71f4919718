/**
 * What to tell a person about a node type the server lacks. A node ComfyUI itself ships
 * (`cnr_id: comfy-core` in the file) is named as such, with the ComfyUI version the file was saved
 * with, which has it: the cure is a newer ComfyUI, never a node pack. So is a node type of the
 * hand-kept supplement of core nodes newer than 0.3.64, whatever the file says. Anything else names
 * its pack when the file does.
 */
import type { MissingNodeType } from '../protocol/library';
import { newerCoreNode } from './newer-core-nodes';

/** ComfyUI's own nodes carry this registry id in a saved workflow. */
export const CORE_PACK = 'comfy-core';

export function isCoreNode(type: Pick<MissingNodeType, 'pack'>): boolean {
	return type.pack === CORE_PACK;
}

/** One line's worth: where the node type comes from and what would bring it to this server. */
export function missingNodeTypeCure(type: Pick<MissingNodeType, 'pack' | 'version'> & { type?: string }): string {
	const newer = type.type !== undefined && type.pack === undefined ? newerCoreNode(type.type) : undefined;
	if (newer) return `a core node of ComfyUI newer than 0.3.64 (${newer.source}): update ComfyUI on this server, or pick another server`;
	if (isCoreNode(type))
		return type.version
			? `a core node of ComfyUI (ComfyUI ${type.version} has it): update ComfyUI on this server, or pick another server`
			: 'a core node of ComfyUI, from a newer version than this server runs: update ComfyUI on this server, or pick another server';
	return type.pack
		? `from the node pack "${type.pack}": install it on this server, or pick another server`
		: 'a custom node (the file does not say which node pack): install it on this server, or pick another server';
}
