import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { parseServerEvent } from '../../src/lib/workflows/protocol/workflow-events';
import { readTextChunks } from './png-text';
import { RecordingSocket, api, control, variant } from './test-support';
import { useWorkflowEmulator } from './use-workflow-emulator';

const t2i = textToImage as ApiPrompt;
const bed = useWorkflowEmulator();

describe('auth and CORS', () => {
	it('accepts X-API-Key and Bearer, refuses Bearer in x-api-key-only, and a wrong key', async () => {
		const url = `${bed.emu.urls.workflow}/api/queue`;
		expect((await fetch(url, { headers: { 'X-API-Key': bed.emu.apiKey } })).status).toBe(200);
		expect((await fetch(url, { headers: { Authorization: `Bearer ${bed.emu.apiKey}` } })).status).toBe(200);
		expect((await fetch(url, { headers: { 'X-API-Key': 'nope' } })).status).toBe(401);
		await control(bed.emu, '/scenario', { name: 'x-api-key-only' });
		const bearer = await fetch(url, { headers: { Authorization: `Bearer ${bed.emu.apiKey}` } });
		expect(bearer.status).toBe(401);
		expect(await bearer.json()).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('X-API-Key') });
		expect((await fetch(url, { headers: { 'X-API-Key': bed.emu.apiKey } })).status).toBe(200);
	});

	it('answers 402 and 429 for runs of accounts without credits or subscription', async () => {
		await control(bed.emu, '/scenario', { name: 'no-credits' });
		expect((await api(bed.emu).submit(t2i)).status).toBe(402);
		await control(bed.emu, '/scenario', { name: 'inactive-subscription' });
		const res = await api(bed.emu).submit(t2i);
		expect(res.status).toBe(429);
		expect(res.body).toMatchObject({ code: 'subscription_inactive' });
	});

	it('puts CORS headers and exposed headers on errors', async () => {
		const res = await fetch(`${bed.emu.urls.workflow}/api/prompt`, {
			method: 'POST',
			headers: { Origin: 'http://app.test', 'X-API-Key': bed.emu.apiKey, 'Content-Type': 'application/json' },
			body: '{}'
		});
		expect(res.status).toBe(400);
		expect(res.headers.get('access-control-allow-origin')).toBe('http://app.test');
		expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
	});
});

describe('object_info', () => {
	it('describes every node in ComfyUI format, with partner nodes marked api_node', async () => {
		const nodes = (await (await api(bed.emu).get('/api/object_info')).json()) as Record<string, Record<string, unknown>>;
		for (const name of [
			'LoadImage',
			'LoadImageMask',
			'SaveImage',
			'PreviewImage',
			'ImageInvert',
			'ImageScale',
			'ImageBlur',
			'ImageCrop',
			'EmptyImage',
			'CheckpointLoaderSimple',
			'CLIPTextEncode',
			'EmptyLatentImage',
			'KSampler',
			'VAEDecode',
			'SaveAnimatedWEBP',
			'SaveAudio'
		]) {
			expect(nodes[name], name).toMatchObject({
				output: expect.any(Array),
				output_name: expect.any(Array),
				output_node: expect.any(Boolean),
				category: expect.any(String)
			});
			// ComfyUI 0.3.64 serves null for the nodes that name no display name (ImageBlur is one).
			expect(typeof nodes[name]!.display_name === 'string' || nodes[name]!.display_name === null, name).toBe(true);
		}
		expect(nodes['LoadImage']).toMatchObject({ input: { required: { image: [[], { image_upload: true }] } } });
		expect(nodes['ImageScale']).toMatchObject({
			input: { required: { width: ['INT', { min: 0, max: 16384 }], upscale_method: [expect.arrayContaining(['lanczos'])] } }
		});
		expect(nodes['StabilityStableImageUltraNode']).toMatchObject({ api_node: true });
		expect(nodes['KSampler']!['api_node']).toBeUndefined();
		// The route answers without the /api prefix too, as ComfyUI does.
		expect((await api(bed.emu).get('/object_info')).status).toBe(200);
		expect(Object.keys((await (await api(bed.emu).get('/api/object_info/KSampler')).json()) as object)).toEqual(['KSampler']);
		expect(await (await api(bed.emu).get('/api/object_info/Nope')).json()).toEqual({});
	});
});

describe('POST /api/prompt validation', () => {
	it('gives a plain-text 500 for a body that is not JSON, as ComfyUI does', async () => {
		const res = await api(bed.emu).post('/api/prompt', '{not json');
		expect(res.status).toBe(500);
		expect(res.headers.get('content-type')).toContain('text/plain');
	});

	it('says no_prompt when the prompt is missing', async () => {
		const res = await api(bed.emu).post('/api/prompt', { number: 3 });
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({
			error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} },
			node_errors: {}
		});
	});

	it('refuses unknown node types and prompts without outputs', async () => {
		const unknown = await api(bed.emu).submit({ '1': { class_type: 'NoSuchNode', inputs: {} } });
		expect(unknown.status).toBe(400);
		expect(unknown.body['error']).toMatchObject({
			type: 'invalid_prompt',
			message: 'Cannot execute because node NoSuchNode does not exist.'
		});
		const noOutputs = await api(bed.emu).submit({
			'1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } }
		});
		expect(noOutputs.body['error']).toMatchObject({ type: 'prompt_no_outputs' });
	});

	it('reports missing inputs, out-of-range values, bad combos, wrong types and dangling links per node', async () => {
		const bad = variant(t2i, { '3': { steps: 0, sampler_name: 'nope', cfg: 'high' }, '5': { width: 99999 } });
		delete bad['6']!.inputs['text'];
		bad['8']!.inputs['vae'] = ['99', 0];
		const res = await api(bed.emu).submit(bad);
		expect(res.status).toBe(400);
		expect(res.body['error']).toMatchObject({ type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation' });
		const errors = res.body['node_errors'] as Record<
			string,
			{ errors: Array<{ type: string; extra_info: { input_name?: string } }>; dependent_outputs: string[]; class_type: string }
		>;
		const types = (id: string) => errors[id]?.errors.map((e) => `${e.type}:${e.extra_info.input_name}`);
		expect(errors['8']).toMatchObject({
			class_type: 'VAEDecode',
			dependent_outputs: ['9'],
			errors: [{ type: 'exception_during_inner_validation', details: "'99'" }]
		});
		// VAEDecode's dangling link stops validation before its other inputs are reached, as in ComfyUI.
		void types;
		const badLink = variant(t2i, { '3': { steps: 0, sampler_name: 'nope', cfg: 'high' }, '5': { width: 99999 } });
		delete badLink['6']!.inputs['text'];
		const res2 = await api(bed.emu).submit(badLink);
		const errors2 = res2.body['node_errors'] as typeof errors;
		expect(errors2['3']!.errors.map((e) => e.type).sort()).toEqual(['invalid_input_type', 'value_not_in_list', 'value_smaller_than_min']);
		expect(errors2['5']!.errors).toMatchObject([
			{
				type: 'value_bigger_than_max',
				message: 'Value 99999 bigger than max of 16384',
				details: 'width',
				extra_info: { input_name: 'width' }
			}
		]);
		expect(errors2['6']!.errors).toMatchObject([{ type: 'required_input_missing', message: 'Required input is missing', details: 'text' }]);
	});

	it('names a dependency cycle instead of looping', async () => {
		const res = await api(bed.emu).submit({
			'1': { class_type: 'ImageInvert', inputs: { image: ['2', 0] } },
			'2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
			'3': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } }
		});
		expect(res.status).toBe(400);
		expect(res.body['node_errors']).toMatchObject({ '2': { errors: [{ type: 'dependency_cycle' }] } });
	});

	it('reports a link to the wrong output type', async () => {
		const res = await api(bed.emu).submit(variant(t2i, { '8': { samples: ['4', 0] } }));
		const errors = res.body['node_errors'] as Record<string, { errors: Array<{ type: string; details: string }> }>;
		expect(errors['8']!.errors[0]).toMatchObject({
			type: 'return_type_mismatch',
			details: 'samples, received_type(MODEL) mismatch input_type(LATENT)'
		});
	});

	it('runs the outputs that validate and reports the others in node_errors, as ComfyUI does', async () => {
		const prompt = {
			...variant(t2i),
			'20': { class_type: 'SaveImage', inputs: { images: ['21', 0], filename_prefix: 'x' } },
			'21': { class_type: 'ImageInvert', inputs: {} }
		};
		const res = await api(bed.emu).submit(prompt);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			prompt_id: expect.any(String),
			number: expect.any(Number),
			node_errors: { '21': { errors: [{ type: 'required_input_missing' }] } }
		});
	});
});

describe('running the text-to-image chain', () => {
	it('streams the event table, saves a PNG with the workflow, and records status and history', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const workflow = { nodes: [], links: [], version: 0.4 };
		const submitted = await api(bed.emu).submit(t2i, {
			client_id: 'someone-else',
			number: 5,
			front: true,
			extra_data: { extra_pnginfo: { workflow, notes: 'every key becomes a tEXt chunk' } }
		});
		expect(submitted.status).toBe(200);
		// number and front are ignored: the service numbers jobs itself.
		expect(submitted.body['number']).toBe(0);
		const id = submitted.body['prompt_id'] as string;
		const messages = await socket.untilDone(id);
		socket.close();
		const types = messages.map((m) => m.type);
		expect(types[0]).toBe('execution_start');
		expect(types).toContain('execution_cached');
		expect(types.filter((t) => t === 'progress')).toHaveLength(20);
		expect(types).toContain('progress_state');
		// Every message parses with the app's own parser.
		for (const m of socket.json()) expect(parseServerEvent(JSON.stringify(m)).ok, m.type).toBe(true);
		const executing = messages.filter((m) => m.type === 'executing').map((m) => m.data['node']);
		// Dependencies first, depth-first from the output in input order (ComfyUI's order differs in detail).
		expect(executing).toEqual(['4', '6', '7', '5', '3', '8', '9', null]);
		expect(types.slice(-2)).toEqual(['execution_success', 'executing']);
		expect(socket.json('status').length).toBeGreaterThan(1);
		const executed = messages.find((m) => m.type === 'executed')!;
		expect(executed.data).toMatchObject({
			node: '9',
			output: { images: [{ filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' }] }
		});

		expect(await (await api(bed.emu).get(`/api/job/${id}/status`)).json()).toEqual({ status: 'completed' });
		const history = (await (await api(bed.emu).get(`/api/history/${id}`)).json()) as Record<
			string,
			{ status: { status_str: string; completed: boolean; messages: Array<[string]> }; outputs: Record<string, unknown>; prompt: unknown[] }
		>;
		expect(history[id]!.status).toMatchObject({ status_str: 'success', completed: true });
		expect(history[id]!.status.messages.map((m) => m[0])).toEqual(['execution_start', 'execution_cached', 'execution_success']);
		expect(history[id]!.outputs['9']).toEqual(executed.data['output']);
		expect(history[id]!.prompt[1]).toBe(id);

		const view = await api(bed.emu).get('/api/view?filename=ComfyUI_00001_.png&type=output&subfolder=');
		expect(view.status).toBe(302);
		const png = new Uint8Array(await (await fetch(view.headers.get('location')!)).arrayBuffer());
		const meta = await sharp(png).metadata();
		expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
		const text = readTextChunks(png);
		expect(JSON.parse(text['prompt']!)['3']['class_type']).toBe('KSampler');
		expect(JSON.parse(text['workflow']!)).toEqual(workflow);
		expect(JSON.parse(text['notes']!)).toBe('every key becomes a tEXt chunk');
	});

	it('gives the same picture for the same prompt and seed, another for another seed', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const hashes: string[] = [];
		for (const seed of [1, 2]) {
			const { body } = await api(bed.emu).submit(variant(t2i, { '3': { seed, steps: 2 }, '5': { width: 64, height: 64 } }));
			const done = await socket.untilDone(body['prompt_id'] as string);
			const file = (done.find((m) => m.type === 'executed')!.data['output'] as { images: Array<{ filename: string }> }).images[0]!.filename;
			const res = await fetch((await api(bed.emu).get(`/api/view?filename=${file}&type=output`)).headers.get('location')!);
			const { data } = await sharp(new Uint8Array(await res.arrayBuffer()))
				.raw()
				.toBuffer({ resolveWithObject: true });
			hashes.push(data.toString('base64'));
		}
		socket.close();
		expect(hashes[0]).not.toEqual(hashes[1]);
	});

	it('lists history with max_items and clears it', async () => {
		const socket = await RecordingSocket.open(bed.emu);
		const ids: string[] = [];
		for (const seed of [1, 2, 3]) {
			const id = (await api(bed.emu).submit(variant(t2i, { '3': { seed, steps: 1 }, '5': { width: 16, height: 16 } }))).body[
				'prompt_id'
			] as string;
			await socket.untilDone(id);
			ids.push(id);
		}
		socket.close();
		expect(Object.keys((await (await api(bed.emu).get('/api/history')).json()) as object)).toEqual(ids);
		expect(Object.keys((await (await api(bed.emu).get('/api/history?max_items=2')).json()) as object)).toEqual(ids.slice(1));
		expect((await api(bed.emu).post('/api/history', { delete: [ids[0]] })).status).toBe(200);
		expect(Object.keys((await (await api(bed.emu).get('/api/history')).json()) as object)).toEqual(ids.slice(1));
		expect((await api(bed.emu).post('/api/history', { clear: true })).status).toBe(200);
		expect(await (await api(bed.emu).get('/api/history')).json()).toEqual({});
	});

	it('answers 404 for an unknown job and {} for unknown history', async () => {
		expect((await api(bed.emu).get('/api/job/nope/status')).status).toBe(404);
		expect(await (await api(bed.emu).get('/api/history/nope')).json()).toEqual({});
	});
});
