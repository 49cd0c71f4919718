/**
 * Core node types of ComfyUI newer than 0.3.64 (the release the emulator's node set follows), kept
 * by hand: a workflow that uses one is missing a core node of a newer ComfyUI, never a custom node,
 * even when the file does not say `cnr_id: comfy-core` (API-format files never do).
 *
 * Each names the ComfyUI source that registers it, read in Comfy-Org/ComfyUI at the commit given;
 * ComfyUI 0.3.64 (commit a125cd84b054a57729b5eecab930ca9408719832) has none of them. To follow a newer
 * ComfyUI, add the node ids its `get_node_list` gains that `npm run emulator:nodes` does not serve.
 */

export interface NewerCoreNode {
	/** The file in ComfyUI's repository that defines and registers the node. */
	source: string;
	/** The Comfy-Org/ComfyUI commit the file was read at. */
	commit: string;
}

const AUDIO = { source: 'comfy_extras/nodes_audio.py', commit: '3fa38fd9cc20446bc3486e8306e8013121775397' } as const;
const LOGIC = { source: 'comfy_extras/nodes_logic.py', commit: '256997712ced5a5ef4aa01bfa87a884835a373bc' } as const;

export const NEWER_CORE_NODES: Readonly<Record<string, NewerCoreNode>> = {
	AudioDuration: AUDIO,
	AudioEqualizer3Band: AUDIO,
	JoinAudioChannels: AUDIO,
	SaveAudioAdvanced: AUDIO,
	VAEDecodeAudioTiled: AUDIO,
	ComfyAndNode: LOGIC,
	ComfyNotNode: LOGIC,
	ComfyOrNode: LOGIC,
	ComfyPassOrNoneNode: LOGIC,
	ComfySwitchNode: LOGIC,
	CustomCombo: LOGIC
};

/** The supplement's entry for a node type, if it is a core node of a ComfyUI newer than 0.3.64. */
export function newerCoreNode(type: string): NewerCoreNode | undefined {
	return Object.hasOwn(NEWER_CORE_NODES, type) ? NEWER_CORE_NODES[type] : undefined;
}
