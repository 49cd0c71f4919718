/**
 * A 3D model on v2: ComfyUI's SaveGLB reports it as a `3d` entry, which has no preview; the contract
 * makes it an Output of type `file` (a download), as the Hunyuan3D templates end.
 */
import { describe, expect, it } from 'vitest';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { pollJob, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();

const meshJob = () => ({
	'1': { class_type: 'ImageOnlyCheckpointLoader', inputs: { ckpt_name: 'hunyuan3d-dit-v2_fp16.safetensors' } },
	'2': { class_type: 'EmptyLatentHunyuan3Dv2', inputs: { resolution: 3072, batch_size: 1 } },
	'3': { class_type: 'VAEDecodeHunyuan3D', inputs: { samples: ['2', 0], vae: ['1', 2], num_chunks: 8000, octree_resolution: 256 } },
	'4': { class_type: 'VoxelToMeshBasic', inputs: { voxel: ['3', 0], threshold: 0.6 } },
	'5': { class_type: 'SaveGLB', inputs: { mesh: ['4', 0], filename_prefix: 'mesh/ComfyUI' } }
});

describe('v2: a 3D model output', () => {
	it('is an Output of type file whose content is the GLB', async () => {
		const client = v2Client(bed.emu, 'managed');
		const { status, body } = await client.submit<JobBody>(meshJob());
		expect(status, JSON.stringify(body)).toBeLessThan(300);
		const done = await pollJob(client, body, terminal);
		expect(done.status, JSON.stringify(done)).toBe('succeeded');
		const file = done.outputs.find((o) => o['node_id'] === '5');
		expect(file).toMatchObject({ type: 'file', content_type: 'model/gltf-binary', name: expect.stringMatching(/\.glb$/) });
		const res = await client.raw(`/assets/${encodeURIComponent(String(file!['id']))}/content`);
		expect(res.status).toBe(302);
		const bytes = new Uint8Array(await (await fetch(res.headers.get('location')!)).arrayBuffer());
		expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('glTF');
	});
});
