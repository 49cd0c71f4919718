import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureObjectInfo } from '../src/lib/workflows/rules/converter/object-info.fixture';
import { edit, txt2imgNodes, uiNode, workflow04 } from '../src/lib/workflows/rules/converter/ui-builder.fixture';
import { runConvert, type ConvertIo } from './convert/main';

const dir = mkdtempSync(join(tmpdir(), 'runboard-convert-'));
const file = (name: string, content: string | Uint8Array) => {
	const path = join(dir, name);
	writeFileSync(path, content);
	return path;
};
const objectInfo = file('object_info.json', JSON.stringify(fixtureObjectInfo()));
const { nodes, links } = txt2imgNodes();
const uiFile = file('txt2img.json', JSON.stringify(workflow04(nodes, links)));

async function run(argv: string[], fetched?: string): Promise<{ code: number; stdout: string; stderr: string }> {
	let stdout = '';
	let stderr = '';
	const io: ConvertIo = {
		readFile: async (path) => new Uint8Array(await readFile(path)),
		fetch: async (url) => {
			if (fetched === undefined) throw new Error(`connect ECONNREFUSED ${url}`);
			return { ok: true, status: 200, text: async () => fetched };
		},
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t)
	};
	const code = await runConvert(argv, io);
	return { code, stdout, stderr };
}

describe('npm run convert', () => {
	it('prints the API prompt of a UI-format file and exits 0', async () => {
		const result = await run(['--object-info', objectInfo, uiFile]);
		expect(result).toMatchObject({ code: 0, stderr: '' });
		const prompt = JSON.parse(result.stdout);
		expect(Object.keys(prompt).sort()).toEqual(['3', '4', '5', '6', '7', '8', '9']);
		expect(prompt['3'].inputs.seed).toBe(42);
	});

	it('checks an API-format file and prints it back', async () => {
		const converted = JSON.parse((await run(['--object-info', objectInfo, uiFile])).stdout);
		const apiFile = file('api.json', JSON.stringify(converted));
		const result = await run(['--object-info', objectInfo, apiFile]);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual(converted);

		const broken = { ...converted, '9': { class_type: 'SaveImage', inputs: { images: ['99', 0] } } };
		const bad = await run(['--object-info', objectInfo, file('api-broken.json', JSON.stringify(broken))]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain('error: Node 9: input "images" is linked from node 99, which the workflow does not have.');
		expect(bad.stderr).toContain('"filename_prefix" has no value');
	});

	it('fetches object_info from --server', async () => {
		const result = await run(['--server', 'http://127.0.0.1:8188', uiFile], JSON.stringify(fixtureObjectInfo()));
		expect(result.code).toBe(0);
		const down = await run(['--server', 'http://127.0.0.1:1', uiFile]);
		expect(down).toMatchObject({ code: 1, stdout: '' });
		expect(down.stderr).toBe(
			'error: Cannot fetch http://127.0.0.1:1/api/object_info: connect ECONNREFUSED http://127.0.0.1:1/api/object_info\n'
		);
	});

	it('warns of a model file the server lacks and still prints the prompt (exit 0): only an unsendable prompt is an error', async () => {
		const { nodes, links } = edit(txt2imgNodes(), [
			uiNode(4, 'CheckpointLoaderSimple', {
				outputs: [
					['MODEL', 'MODEL', [1]],
					['CLIP', 'CLIP', [3, 5]],
					['VAE', 'VAE', [8]]
				],
				values: ['SDXL/not_on_this_server.safetensors']
			})
		]);
		const models = [{ name: 'not_on_this_server.safetensors', url: 'https://example.com/m.safetensors', directory: 'checkpoints' }];
		const result = await run(['--object-info', objectInfo, file('model.json', JSON.stringify(workflow04(nodes, links, { models })))]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(
			'warning: Node 4 ("Load Checkpoint") uses the model file "SDXL/not_on_this_server.safetensors" (ckpt_name), which this server does not list; download it from https://example.com/m.safetensors into models/checkpoints.'
		);
		expect(JSON.parse(result.stdout)['4'].inputs.ckpt_name).toBe('SDXL/not_on_this_server.safetensors');
	});

	it('names a missing node pack, and prints warnings even on success', async () => {
		const missing = edit(txt2imgNodes(), [
			uiNode(60, 'FaceDetailer', { title: 'Fix faces', properties: { cnr_id: 'comfyui-impact-pack' } })
		]);
		const result = await run(['--object-info', objectInfo, file('missing.json', JSON.stringify(workflow04(missing.nodes, missing.links)))]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'- FaceDetailer, from the node pack "comfyui-impact-pack": install it on this server, or pick another server; used by #60 "Fix faces"'
		);

		const short = edit(txt2imgNodes(), [uiNode(5, 'EmptyLatentImage', { outputs: [['LATENT', 'LATENT', [2]]], values: [512] })]);
		const warned = await run(['--object-info', objectInfo, file('short.json', JSON.stringify(workflow04(short.nodes, short.links)))]);
		expect(warned.code).toBe(0);
		expect(warned.stderr).toMatch(/^warning: Node 5 \("Empty Latent Image", EmptyLatentImage\) has 1 widget values where/);
	});

	it.each([
		['no arguments', [], /^error: Give exactly one workflow file\. Usage/],
		[
			'a .txt file',
			['--object-info', 'x', 'a.txt'],
			/^error: Reading \.txt files is not supported; give a \.json workflow or a file ComfyUI saved \(/
		],
		['a PNG without a workflow', ['--object-info', objectInfo, file('plain.png', '\x89PNG\r\n\x1a\n')], /^error: /],
		[
			'a file that is not JSON',
			['--object-info', objectInfo, file('bad.json', '{"nodes": [')],
			/^error: The workflow file: This is not valid JSON/
		],
		[
			'JSON nested 100,000 deep',
			['--object-info', objectInfo, file('deep.json', '['.repeat(100_000) + ']'.repeat(100_000))],
			/^error: The workflow file: The JSON nests deeper than 512 levels/
		],
		['neither format', ['--object-info', objectInfo, file('other.json', '{"hello": 1}')], /^error: This is neither a UI-format workflow/]
	])('%s: exit 1 with a message, no stack trace', async (_, argv, message) => {
		const result = await run(argv as string[]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(message);
		expect(result.stderr).not.toMatch(/\n\s+at /);
	});

	it.each(['image-text.png', 'animated.png', 'animated.webp', 'audio.flac', 'audio.mp3', 'audio.opus', 'video.mp4', 'video.webm'])(
		'reads the UI workflow of %s, checked against its embedded prompt',
		async (name) => {
			const result = await run(['--object-info', objectInfo, `tests/fixtures/workflow-files/${name}`]);
			expect(result.stderr).toBe('');
			expect(result.code).toBe(0);
			const expected = JSON.parse(readFileSync('tests/fixtures/workflow-files/api-workflow.json', 'utf8'));
			expect(JSON.parse(result.stdout)['3'].inputs).toEqual(expected['3'].inputs);
		}
	);

	it('runs as a process through tsx', () => {
		const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/convert.ts', '--object-info', objectInfo, uiFile], {
			encoding: 'utf8'
		});
		expect(child.stderr).toBe('');
		expect(child.status).toBe(0);
		expect(JSON.parse(child.stdout)['9'].inputs).toEqual({ filename_prefix: 'cat', images: ['8', 0] });
	});
});
