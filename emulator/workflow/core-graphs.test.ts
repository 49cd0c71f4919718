import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FileRef, NodeUiOutput } from '../../src/lib/workflows/protocol/workflow-api';
import { CORE_GRAPHS, INPUT_IMAGE } from './core-graphs.fixture';
import { RecordingSocket, api } from './test-support';
import { useWorkflowEmulator } from './use-workflow-emulator';
import { SUBGRAPH_WORKFLOW } from './subgraph-workflow.fixture';
import { BLOCKS, STEPS_PER_BLOCK, largeGraph } from '../../bench/support/large-graph';
import { convertUiWorkflow } from '../../src/lib/workflows/rules/converter/convert';
import { parseObjectInfo } from '../../src/lib/workflows/protocol/object-info';

const bed = useWorkflowEmulator();

async function uploadInputPicture(): Promise<void> {
	const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 80, b: 40 } } })
		.png()
		.toBuffer();
	expect((await api(bed.emu).upload('/api/upload/image', INPUT_IMAGE, new Uint8Array(png))).status).toBe(200);
}

async function download(ref: FileRef): Promise<Buffer> {
	const view = await api(bed.emu).get(`/api/view?filename=${encodeURIComponent(ref.filename)}&subfolder=${ref.subfolder}&type=${ref.type}`);
	const res = view.status === 302 ? await fetch(view.headers.get('location')!) : view;
	expect(res.status).toBe(200);
	return Buffer.from(await res.arrayBuffer());
}

describe('graphs of the common families run on the emulator', () => {
	for (const graph of CORE_GRAPHS) {
		it(`${graph.name}: runs to success and writes a file of its kind`, async () => {
			if (graph.image) await uploadInputPicture();
			const socket = await RecordingSocket.open(bed.emu);
			const { status, body } = await api(bed.emu).submit(graph.prompt, { client_id: 'test-client' });
			expect(status, JSON.stringify(body)).toBe(200);
			const id = body['prompt_id'] as string;
			const events = await socket.untilDone(id);
			socket.close();
			const failure = events.find((m) => m.type === 'execution_error');
			expect(failure?.data, JSON.stringify(failure?.data)).toBeUndefined();
			expect(events.map((m) => m.type)).toContain('execution_success');
			// Every sampler reports its steps.
			expect(events.filter((m) => m.type === 'progress').length).toBeGreaterThan(0);
			const output = events.find((m) => m.type === 'executed' && m.data['node'] === graph.output.node)?.data['output'] as NodeUiOutput;
			// A video is listed under `images`, marked animated, as ComfyUI 0.3.64 lists SaveVideo's file.
			if (graph.output.kind === 'video') expect(output.animated).toEqual([true]);
			const refs = output[graph.output.kind === 'video' ? 'images' : graph.output.kind]!;
			expect(refs).toHaveLength(1);
			const bytes = await download(refs[0]!);
			if (graph.output.kind === 'images') {
				const meta = await sharp(bytes).metadata();
				expect(meta.format).toBe('png');
				if (graph.size) expect({ width: meta.width, height: meta.height }).toEqual(graph.size);
			}
			if (graph.output.kind === 'audio') expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
			// WebM starts with the EBML magic number.
			if (graph.output.kind === 'video') expect([...bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
		});
	}

	it('a 200-node chain (the benchmark’s graph) runs to success: cache keys stay short however long the chain', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const { status, body } = await api(bed.emu).submit(largeGraph(1), { client_id: 'test-client' });
		expect(status, JSON.stringify(body)).toBe(200);
		const events = await socket.untilDone(body['prompt_id'] as string, 60_000);
		socket.close();
		expect(events.map((m) => m.type)).toContain('execution_success');
		expect(events.filter((m) => m.type === 'progress')).toHaveLength(BLOCKS * STEPS_PER_BLOCK);
	}, 90_000);

	it('KSamplerAdvanced reports the steps it runs: from start_at_step to the end', async () => {
		const hires = CORE_GRAPHS.find((g) => g.prompt['11']?.class_type === 'KSamplerAdvanced')!;
		const socket = await RecordingSocket.open(bed.emu);
		const { body } = await api(bed.emu).submit(hires.prompt, { client_id: 'test-client' });
		await socket.untilDone(body['prompt_id'] as string);
		socket.close();
		const progress = socket.json('progress').filter((m) => m.data['node'] === '11');
		expect(progress.map((m) => m.data['value'])).toEqual([1, 2, 3]);
		expect(socket.binary().length).toBe(4 + 3);
	});

	it('refuses a LoRA the model shelf lacks with value_not_in_list, as ComfyUI does for a missing file', async () => {
		const lora = CORE_GRAPHS[0]!;
		const prompt = JSON.parse(JSON.stringify(lora.prompt)) as typeof lora.prompt;
		prompt['10']!.inputs['lora_name'] = 'my-private-style.safetensors';
		const { status, body } = await api(bed.emu).submit(prompt);
		expect(status).toBe(400);
		expect(body).toMatchObject({
			error: { type: 'prompt_outputs_failed_validation' },
			node_errors: {
				'10': {
					class_type: 'LoraLoader',
					errors: [{ type: 'value_not_in_list', details: expect.stringContaining("lora_name: 'my-private-style.safetensors' not in") }]
				}
			}
		});
	});

	it('LoadImageOutput takes one of the server’s outputs by its annotated name, and refuses one it does not have', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const first = await api(bed.emu).submit(CORE_GRAPHS[0]!.prompt, { client_id: 'test-client' });
		const events = await socket.untilDone(first.body['prompt_id'] as string);
		const saved = (events.find((m) => m.type === 'executed')?.data['output'] as NodeUiOutput).images![0]!;
		const reuse = (image: string) => ({
			'1': { class_type: 'LoadImageOutput', inputs: { image } },
			'2': { class_type: 'PreviewImage', inputs: { images: ['1', 0] } }
		});
		const ok = await api(bed.emu).submit(reuse(`${saved.filename} [output]`), { client_id: 'test-client' });
		expect(ok.status, JSON.stringify(ok.body)).toBe(200);
		expect((await socket.untilDone(ok.body['prompt_id'] as string)).map((m) => m.type)).toContain('execution_success');
		socket.close();
		const missing = await api(bed.emu).submit(reuse('ComfyUI_99999_.png [output]'));
		expect(missing.status).toBe(400);
		expect(JSON.stringify(missing.body)).toContain('Invalid image file: ComfyUI_99999_.png [output]');
	});

	it('refuses a link whose type does not fit the input (an IMAGE into a LATENT)', async () => {
		const prompt = JSON.parse(JSON.stringify(CORE_GRAPHS[2]!.prompt)) as (typeof CORE_GRAPHS)[number]['prompt'];
		prompt['10']!.inputs['samples'] = ['6', 0];
		const { status, body } = await api(bed.emu).submit(prompt);
		expect(status).toBe(400);
		expect(JSON.stringify(body)).toContain('return_type_mismatch');
	});
});

describe('a UI-format workflow with a subgraph, converted by the app, runs on the emulator', () => {
	it('converts against the served node definitions and runs to success, writing the subgraph’s picture', async () => {
		const info = parseObjectInfo(await (await api(bed.emu).get('/api/object_info')).json());
		expect(info.ok).toBe(true);
		if (!info.ok) return;
		const converted = convertUiWorkflow(SUBGRAPH_WORKFLOW, info.nodes);
		expect(converted.ok, JSON.stringify(converted)).toBe(true);
		if (!converted.ok) return;
		expect(converted.missing).toEqual({ nodeTypes: [], models: [] });
		expect(Object.keys(converted.prompt).sort()).toEqual(['1:10', '1:12', '1:13', '1:14', '1:15', '1:16', '2', '4']);
		// The instance's only slot (the seed) feeds the seed, though it is the subgraph's second input.
		expect(converted.prompt['1:15']!.inputs['seed']).toEqual(['4', 0]);
		// The prompt shown on the instance (proxyWidgets ["-1", "text"]) is the one sent, not the inner node's old text.
		expect(converted.prompt['1:12']!.inputs['text']).toBe('a kite at noon');
		const socket = await RecordingSocket.open(bed.emu);
		const { status, body } = await api(bed.emu).submit(converted.prompt, { client_id: 'test-client' });
		expect(status, JSON.stringify(body)).toBe(200);
		const events = await socket.untilDone(body['prompt_id'] as string);
		socket.close();
		expect(events.map((m) => m.type)).toContain('execution_success');
		const output = events.find((m) => m.type === 'executed' && m.data['node'] === '2')?.data['output'] as NodeUiOutput;
		const meta = await sharp(await download(output.images![0]!)).metadata();
		expect({ width: meta.width, height: meta.height }).toEqual({ width: 80, height: 48 });
	});
});

describe('the model shelf over ComfyUI routes', () => {
	it('names its folders at /models and lists a folder at /models/{folder}; an unknown folder is 404', async () => {
		const folders = (await (await api(bed.emu).get('/api/models')).json()) as string[];
		expect(folders).toEqual(
			expect.arrayContaining(['checkpoints', 'loras', 'vae', 'text_encoders', 'diffusion_models', 'controlnet', 'upscale_models'])
		);
		const loras = (await (await api(bed.emu).get('/models/loras')).json()) as string[];
		expect(loras).toContain('epiNoiseoffset_v2.safetensors');
		expect((await api(bed.emu).get('/api/models/nope')).status).toBe(404);
	});
});
