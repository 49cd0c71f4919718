import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import textToImage from '../src/lib/workflows/rules/examples/text-to-image.json';
import { createEmulatorPool, type EmulatorPool } from './pool';
import { DEFAULT_STEP_MS } from './workflow/engine';

const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';
let pool: EmulatorPool;

beforeAll(async () => {
	pool = await createEmulatorPool([
		{ name: 'full' },
		{ name: 'no-checkpoint', shape: { lacksModels: [CHECKPOINT] } },
		{ name: 'slow-no-upscale', shape: { stepMs: 200, lacksNodeTypes: ['ImageScale'] } }
	]);
});
afterAll(() => pool.close());

const url = (i: number, path: string) => `${pool.servers[i]!.emulator.urls.workflow}${path}`;
const get = async (i: number, path: string) =>
	(await fetch(url(i, path), { headers: { 'X-API-Key': pool.servers[i]!.emulator.apiKey } })).json() as Promise<Record<string, never>>;
const submit = (i: number) =>
	fetch(url(i, '/api/prompt'), {
		method: 'POST',
		headers: { 'X-API-Key': pool.servers[i]!.emulator.apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({ prompt: textToImage })
	});

describe('a pool of emulated servers', () => {
	it('serves each its own shelf: a missing model is not offered and is refused', async () => {
		const offered = (info: Record<string, { input: { required: { ckpt_name: [string[]] } } }>) =>
			info['CheckpointLoaderSimple']!.input.required.ckpt_name[0];
		expect(offered(await get(0, '/api/object_info'))).toContain(CHECKPOINT);
		expect(offered(await get(1, '/api/object_info'))).not.toContain(CHECKPOINT);
		expect(await get(1, '/api/models/checkpoints')).not.toContain(CHECKPOINT);
		const refused = await submit(1);
		expect(refused.status).toBe(400);
		expect(JSON.stringify(await refused.json())).toContain('value_not_in_list');
		expect((await submit(0)).status).toBe(200);
	});

	it('serves each its own node set and speed', async () => {
		expect(Object.keys(await get(2, '/api/object_info'))).not.toContain('ImageScale');
		expect(Object.keys(await get(0, '/api/object_info'))).toContain('ImageScale');
		expect((await get(2, '/__emulator/workflow/state'))['stepMs']).toBe(200);
		await fetch(url(2, '/__emulator/reset'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
		expect((await get(2, '/__emulator/workflow/state'))['stepMs']).toBe(200);
		expect((await get(0, '/__emulator/workflow/state'))['stepMs']).toBe(DEFAULT_STEP_MS);
	});

	it('stops one server while the others answer', async () => {
		await pool.stop(1);
		expect(pool.stopped(1)).toBe(true);
		await expect(fetch(url(1, '/api/object_info'))).rejects.toThrow();
		expect((await submit(0)).status).toBe(200);
	});
});
