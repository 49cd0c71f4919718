import { describe, expect, it } from 'vitest';
import { missingNodeTypeCure } from './missing-node-words';

describe('missingNodeTypeCure', () => {
	it('names a core node as ComfyUI’s own, with the version that has it, never a node pack', () => {
		const words = missingNodeTypeCure({ pack: 'comfy-core', version: '0.3.66' });
		expect(words).toBe('a core node of ComfyUI (ComfyUI 0.3.66 has it): update ComfyUI on this server, or pick another server');
		expect(words).not.toMatch(/pack/);
	});
	it('says a core node without a version comes from a newer ComfyUI', () => {
		expect(missingNodeTypeCure({ pack: 'comfy-core' })).toMatch(/^a core node of ComfyUI, from a newer version/);
	});
	it('names a custom pack when the file does, and says so when it does not', () => {
		expect(missingNodeTypeCure({ pack: 'comfyui-kjnodes', version: '1.1.0' })).toBe(
			'from the node pack "comfyui-kjnodes": install it on this server, or pick another server'
		);
		expect(missingNodeTypeCure({})).toMatch(/the file does not say which node pack/);
	});
	it('names a core node newer than 0.3.64 as ComfyUI’s own from the hand-kept supplement, though the file says no pack', () => {
		expect(missingNodeTypeCure({ type: 'SaveAudioAdvanced' })).toBe(
			'a core node of ComfyUI newer than 0.3.64 (comfy_extras/nodes_audio.py): update ComfyUI on this server, or pick another server'
		);
		expect(missingNodeTypeCure({ type: 'ComfySwitchNode' })).toMatch(
			/^a core node of ComfyUI newer than 0\.3\.64 \(comfy_extras\/nodes_logic\.py\)/
		);
		// What the file says wins: a pack it names, or the ComfyUI version it was saved with.
		expect(missingNodeTypeCure({ type: 'SaveAudioAdvanced', pack: 'comfy-core', version: '0.3.70' })).toMatch(/ComfyUI 0\.3\.70 has it/);
		expect(missingNodeTypeCure({ type: 'UpscaleWithMagic' })).toMatch(/the file does not say which node pack/);
	});
});
