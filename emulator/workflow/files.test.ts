import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Emulator } from '../index';
import imageEdit from '../../src/lib/workflows/rules/examples/image-edit.json';
import textToAnimation from '../../src/lib/workflows/rules/examples/text-to-animation.json';
import type { ApiPrompt, AssetCreated } from '../../src/lib/workflows/protocol/workflow-api';
import { blake3Hex } from '../storage/blobs';
import { itWithB3sum } from '../../src/lib/workflows/rules/hash/b3sum.fixture';
import { RecordingSocket, api, control, variant, startEmulator } from './test-support';

let emu: Emulator;
let photo: Uint8Array;
beforeAll(async () => {
	emu = await startEmulator();
	photo = new Uint8Array(
		await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } } })
			.png()
			.toBuffer()
	);
});
afterAll(async () => emu.close());
beforeEach(async () => {
	await control(emu, '/reset');
	await control(emu, '/workflow/timing', { stepMs: 2 });
});

const leaks = async () => ((await (await fetch(`${emu.urls.workflow}/__emulator/leaks`)).json()) as { leaks: unknown[] }).leaks;

describe('uploads', () => {
	it('stores by content, echoes subfolder, and lists the upload in LoadImage', async () => {
		const res = await api(emu).upload('/api/upload/image', 'example.png', photo, { subfolder: 'mine', overwrite: 'false', type: 'input' });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ name: 'example.png', subfolder: 'mine', type: 'input' });
		const again = await api(emu).upload('/api/upload/image', 'example.png', photo);
		expect(await again.json()).toMatchObject({ name: 'example.png' });
		const info = (await (await api(emu).get('/api/object_info')).json()) as { LoadImage: { input: { required: { image: [string[]] } } } };
		expect(info.LoadImage.input.required.image[0]).toEqual(['example.png']);
	});

	it('answers 400 with a message for bodies that are not usable uploads', async () => {
		const json = await api(emu).post('/api/upload/image', { image: 'x' });
		expect(json.status).toBe(400);
		expect(await json.json()).toMatchObject({ code: 'bad_request', message: expect.stringContaining('multipart') });
		const form = new FormData();
		form.append('other', 'x');
		const noFile = await fetch(`${emu.urls.workflow}/api/upload/image`, {
			method: 'POST',
			headers: { 'X-API-Key': emu.apiKey },
			body: form
		});
		expect(noFile.status).toBe(400);
		expect((await api(emu).upload('/api/upload/image', 'a.png', photo, { type: 'elsewhere' })).status).toBe(400);
		const broken = await fetch(`${emu.urls.workflow}/api/upload/image`, {
			method: 'POST',
			headers: { 'X-API-Key': emu.apiKey, 'Content-Type': 'multipart/form-data; boundary=zzz' },
			body: '--zzz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc'
		});
		expect(broken.status).toBe(400);
	});

	it('puts a mask into the original image as its alpha (upload/mask with original_ref)', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const mask = await sharp({ create: { width: 320, height: 240, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
			.png()
			.toBuffer();
		const res = await api(emu).upload('/api/upload/mask', 'clipspace-mask.png', new Uint8Array(mask), {
			original_ref: JSON.stringify({ filename: 'example.png', subfolder: '', type: 'input' }),
			type: 'input'
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ name: 'clipspace-mask.png', subfolder: '', type: 'input' });
		expect((await api(emu).upload('/api/upload/mask', 'm.png', new Uint8Array(mask), { original_ref: '{bad' })).status).toBe(400);
		expect(
			(await api(emu).upload('/api/upload/mask', 'm.png', new Uint8Array(mask), { original_ref: '{"filename":"missing.png"}' })).status
		).toBe(400);
		const socket = await RecordingSocket.open(emu);
		const prompt: ApiPrompt = {
			'1': { class_type: 'LoadImageMask', inputs: { image: 'clipspace-mask.png', channel: 'alpha' } },
			'2': { class_type: 'LoadImage', inputs: { image: 'clipspace-mask.png' } },
			'3': { class_type: 'PreviewImage', inputs: { images: ['2', 0] } }
		};
		const id = (await api(emu).submit(prompt)).body['prompt_id'] as string;
		const done = await socket.untilDone(id);
		expect(done.map((m) => m.type)).toContain('execution_success');
		expect(done.find((m) => m.type === 'executed')!.data['output']).toMatchObject({ images: [{ type: 'temp' }] });
		socket.close();
	});
});

describe('upload/mask stores what ComfyUI stores', () => {
	/** A 40×30 RGBA mask, alpha 0 where painted (x 10..19, y 5..14) and 255 elsewhere, as the app's painter makes it. */
	const paintedMask = () => {
		const data = Buffer.alloc(40 * 30 * 4);
		for (let y = 0; y < 30; y++) for (let x = 0; x < 40; x++) data[(y * 40 + x) * 4 + 3] = x >= 10 && x < 20 && y >= 5 && y < 15 ? 0 : 255;
		return sharp(data, { raw: { width: 40, height: 30, channels: 4 } })
			.png()
			.toBuffer();
	};
	const storedInput = async (name: string) => {
		const res = await fetch((await api(emu).get(`/api/view?filename=${name}&type=input`)).headers.get('location')!);
		return sharp(new Uint8Array(await res.arrayBuffer()))
			.raw()
			.toBuffer({ resolveWithObject: true });
	};

	it.each([
		['an RGB original', 3],
		['an original that has alpha of its own', 4]
	] as const)("keeps the colours of %s and takes the mask's alpha as is: painted pixels alpha 0", async (_, channels) => {
		const original = await sharp({ create: { width: 40, height: 30, channels, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
			.png()
			.toBuffer();
		await api(emu).upload('/api/upload/image', 'photo.png', new Uint8Array(original));
		const res = await api(emu).upload('/api/upload/mask', 'clipspace-mask.png', new Uint8Array(await paintedMask()), {
			original_ref: JSON.stringify({ filename: 'photo.png', subfolder: '', type: 'input' }),
			type: 'input'
		});
		expect(res.status).toBe(200);
		const { data, info } = await storedInput('clipspace-mask.png');
		expect([info.width, info.height, info.channels]).toEqual([40, 30, 4]);
		const pixel = (x: number, y: number) => [...data.subarray((y * 40 + x) * 4, (y * 40 + x) * 4 + 4)];
		for (const [x, y] of [
			[10, 5],
			[19, 14],
			[15, 10]
		] as const)
			expect(pixel(x, y), `painted ${x},${y}`).toEqual([200, 40, 90, 0]);
		for (const [x, y] of [
			[9, 5],
			[20, 14],
			[15, 4],
			[15, 15],
			[0, 0],
			[39, 29]
		] as const)
			expect(pixel(x, y), `unpainted ${x},${y}`).toEqual([200, 40, 90, 255]);
		const painted = [...Array(40 * 30).keys()].filter((i) => data[i * 4 + 3] === 0).length;
		expect(painted).toBe(100);
	});

	it("keeps the original's PNG text chunks (its workflow), as ComfyUI copies them", async () => {
		const { addTextChunks, readTextChunks } = await import('./png-text');
		const original = addTextChunks(
			await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
				.png()
				.toBuffer(),
			[['prompt', '{"1":{}}']]
		);
		await api(emu).upload('/api/upload/image', 'with-text.png', new Uint8Array(original));
		await api(emu).upload('/api/upload/mask', 'masked.png', new Uint8Array(await paintedMask()), {
			original_ref: JSON.stringify({ filename: 'with-text.png', subfolder: '', type: 'input' })
		});
		const res = await fetch((await api(emu).get('/api/view?filename=masked.png&type=input')).headers.get('location')!);
		expect(readTextChunks(new Uint8Array(await res.arrayBuffer()))).toEqual({ prompt: '{"1":{}}' });
	});
});

describe('the image edit and animation examples', () => {
	it('runs the image edit chain on an upload with real image operations', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const socket = await RecordingSocket.open(emu);
		const id = (await api(emu).submit(imageEdit as ApiPrompt)).body['prompt_id'] as string;
		const done = await socket.untilDone(id);
		socket.close();
		const saved = done.find((m) => m.type === 'executed' && m.data['node'] === '6')!.data['output'] as {
			images: Array<{ filename: string }>;
		};
		const res = await fetch((await api(emu).get(`/api/view?filename=${saved.images[0]!.filename}&type=output`)).headers.get('location')!);
		const { data, info } = await sharp(new Uint8Array(await res.arrayBuffer()))
			.raw()
			.toBuffer({ resolveWithObject: true });
		// Scaled to 512 wide (384 high), cropped to 384×384, inverted: 255-200, 255-40, 255-90.
		expect([info.width, info.height]).toEqual([384, 384]);
		expect([data[0], data[1], data[2]]).toEqual([55, 215, 165]);
	});

	it('loads an earlier output through ComfyUI\'s "name [output]" annotation', async () => {
		const socket = await RecordingSocket.open(emu);
		const make: ApiPrompt = {
			'1': { class_type: 'EmptyImage', inputs: { width: 40, height: 30, batch_size: 1, color: 0x336699 } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'base' } }
		};
		await socket.untilDone((await api(emu).submit(make)).body['prompt_id'] as string);
		const edit: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'base_00001_.png [output]' } },
			'2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
			'3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'inverted' } }
		};
		const done = await socket.untilDone((await api(emu).submit(edit)).body['prompt_id'] as string);
		socket.close();
		expect(done.find((m) => m.type === 'executed')!.data['output']).toMatchObject({ images: [{ filename: 'inverted_00001_.png' }] });
		const res = await fetch((await api(emu).get('/api/view?filename=inverted_00001_.png')).headers.get('location')!);
		const { data } = await sharp(new Uint8Array(await res.arrayBuffer()))
			.raw()
			.toBuffer({ resolveWithObject: true });
		expect([data[0], data[1], data[2]]).toEqual([255 - 0x33, 255 - 0x66, 255 - 0x99]);
	});

	it('loads an input by its subfolder path, as a mask-editor template names it ("clipspace/x.png [input]")', async () => {
		await api(emu).upload('/api/upload/image', 'painted.png', photo, { subfolder: 'clipspace' });
		const socket = await RecordingSocket.open(emu);
		const edit: ApiPrompt = {
			'1': { class_type: 'LoadImage', inputs: { image: 'clipspace/painted.png [input]' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'from-subfolder' } }
		};
		const sent = await api(emu).submit(edit);
		expect(sent.status, JSON.stringify(sent.body)).toBe(200);
		const done = await socket.untilDone(sent.body['prompt_id'] as string);
		socket.close();
		expect(done.map((m) => m.type)).toContain('execution_success');
		// The same name in another subfolder is not that file.
		expect((await api(emu).submit({ ...edit, '1': { class_type: 'LoadImage', inputs: { image: 'pasted/painted.png' } } })).status).toBe(
			400
		);
	});

	it('saves a batch as an animated WebP listed under images, marked animated, as ComfyUI lists it', async () => {
		const socket = await RecordingSocket.open(emu);
		const id = (await api(emu).submit(variant(textToAnimation as ApiPrompt, { '4': { width: 64, height: 64, batch_size: 4 } }))).body[
			'prompt_id'
		] as string;
		const done = await socket.untilDone(id);
		socket.close();
		const output = done.find((m) => m.type === 'executed')!.data['output'] as { images: Array<{ filename: string }>; animated: boolean[] };
		expect(output).toMatchObject({ images: [{ filename: 'animation_00001_.webp', type: 'output' }], animated: [true] });
		const res = await fetch((await api(emu).get('/api/view?filename=animation_00001_.webp&type=output')).headers.get('location')!);
		const meta = await sharp(new Uint8Array(await res.arrayBuffer()), { animated: true }).metadata();
		expect([meta.format, meta.pages]).toEqual(['webp', 4]);
	});
});

describe('from-hash assets', () => {
	const fromHash = (body: unknown, headers: Record<string, string> = { 'X-API-Key': emu.apiKey }) =>
		fetch(`${emu.urls.workflow}/api/assets/from-hash`, {
			method: 'POST',
			headers: { ...headers, 'Content-Type': 'application/json' },
			body: JSON.stringify(body)
		});

	it('creates (201) then returns (200) a reference, and LoadImage accepts its name', async () => {
		await api(emu).upload('/api/upload/image', 'upload.png', photo);
		const hash = `blake3:${await blake3Hex(photo)}`;
		const created = await fromHash({ hash, tags: ['input'], name: 'my-photo.png', user_metadata: { from: 'test' } });
		expect(created.status).toBe(201);
		const asset = (await created.json()) as AssetCreated;
		expect(asset).toMatchObject({
			name: 'my-photo.png',
			asset_hash: hash,
			size: photo.length,
			mime_type: 'image/png',
			tags: ['input'],
			created_new: true,
			user_metadata: { from: 'test' }
		});
		expect(asset.id).toMatch(/^[0-9a-f-]{36}$/);
		const combo = (await (await api(emu).get('/api/object_info/LoadImage')).json()) as {
			LoadImage: { input: { required: { image: [string[]] } } };
		};
		expect(combo.LoadImage.input.required.image[0]).toEqual(['my-photo.png', 'upload.png']);
		const again = await fromHash({ hash, tags: ['input'], name: 'my-photo.png' });
		expect(again.status).toBe(200);
		expect(await again.json()).toMatchObject({ id: asset.id, created_new: false });

		const socket = await RecordingSocket.open(emu);
		const prompt = variant(imageEdit as ApiPrompt, { '1': { image: 'my-photo.png' } });
		const submitted = await api(emu).submit(prompt);
		expect(submitted.status).toBe(200);
		const done = await socket.untilDone(submitted.body['prompt_id'] as string);
		expect(done.map((m) => m.type)).toContain('execution_success');
		socket.close();

		await control(emu, '/scenario', { name: 'asset-names-rejected' });
		const rejected = await api(emu).submit(prompt);
		expect(rejected.status).toBe(400);
		expect(rejected.body['node_errors']).toMatchObject({
			'1': { errors: [{ type: 'custom_validation_failed', details: 'image - Invalid image file: my-photo.png' }] }
		});
	});

	it('accepts sha256 hashes too, and answers 400, 404 and 401 as specified', async () => {
		await api(emu).upload('/api/upload/image', 'upload.png', photo);
		const { createHash } = await import('node:crypto');
		const sha = `sha256:${createHash('sha256').update(photo).digest('hex')}`;
		expect((await fromHash({ hash: sha, tags: ['input'] })).status).toBe(201);
		const badHash = await fromHash({ hash: 'blake3:ABC', tags: ['input'] });
		expect(badHash.status).toBe(400);
		expect(await badHash.json()).toMatchObject({ code: 'invalid_hash', message: expect.any(String) });
		const noTags = await fromHash({ hash: sha, tags: [] });
		expect(await noTags.json()).toMatchObject({ code: 'invalid_tags' });
		expect(noTags.status).toBe(400);
		const unknown = await fromHash({ hash: `blake3:${'0'.repeat(64)}`, tags: ['input'] });
		expect(unknown.status).toBe(404);
		expect(await unknown.json()).toMatchObject({ code: 'not_found' });
		const unauth = await fromHash({ hash: sha, tags: ['input'] }, {});
		expect(unauth.status).toBe(401);
		expect(await unauth.json()).toMatchObject({ code: 'unauthorized', message: expect.any(String) });
		const notJson = await fetch(`${emu.urls.workflow}/api/assets/from-hash`, {
			method: 'POST',
			headers: { 'X-API-Key': emu.apiKey, 'Content-Type': 'application/json' },
			body: '{'
		});
		expect(notJson.status).toBe(400);
	});

	itWithB3sum('hashes with the same BLAKE3 as Debian b3sum', async () => {
		for (const size of [0, 1023, 1024, 1025, 1 << 20, (1 << 20) + 7]) {
			const bytes = new Uint8Array(size).map((_, i) => (i * 31 + 7) & 255);
			const expected = execFileSync('b3sum', ['--no-names'], { input: bytes }).toString().trim();
			expect(await blake3Hex(bytes), `size ${size}`).toBe(expected);
		}
	});
});

describe('/api/view and the storage origin', () => {
	it('redirects to a signed URL on another origin that serves without credentials and refuses them', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const view = await api(emu, { Origin: 'http://app.test' }).get('/api/view?filename=example.png&type=input&subfolder=');
		expect(view.status).toBe(302);
		expect(view.headers.get('access-control-allow-origin')).toBe('http://app.test');
		const location = view.headers.get('location')!;
		expect(new URL(location).origin).toBe(emu.urls.storage);
		expect(location).not.toContain(emu.apiKey);
		const ok = await fetch(location, { headers: { Origin: 'null' } });
		expect(ok.status).toBe(200);
		expect(ok.headers.get('access-control-allow-origin')).toBe('*');
		expect(new Uint8Array(await ok.arrayBuffer())).toEqual(photo);
		expect(await leaks()).toEqual([]);

		const preflight = await fetch(location, { method: 'OPTIONS', headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET' } });
		expect(preflight.status).toBe(204);
		const leaky = await fetch(location, { headers: { Authorization: `Bearer ${emu.apiKey}` } });
		expect(leaky.status).toBe(403);
		const leakyPreflight = await fetch(location, {
			method: 'OPTIONS',
			headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' }
		});
		expect(leakyPreflight.status).toBe(403);
		const inUrl = await fetch(`${location}&k=${emu.apiKey}`);
		expect(inUrl.status).toBe(403);
		const recorded = (await leaks()) as Array<{ carried: string[]; url: string }>;
		expect(recorded.map((l) => l.carried)).toEqual([['authorization'], ['preflight:x-api-key'], ['api-key-in-url']]);
		expect(JSON.stringify(recorded)).not.toContain(emu.apiKey);
	});

	it('refuses tampered and expired signatures', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const location = (await api(emu).get('/api/view?filename=example.png&type=input')).headers.get('location')!;
		const tampered = new URL(location);
		tampered.pathname = tampered.pathname.replace('example.png', 'other.png');
		expect((await fetch(tampered)).status).toBe(403);
		await control(emu, '/clock/advance', { ms: 3601_000 });
		expect((await fetch(location)).status).toBe(410);
	});

	it('answers preview=webp;90 with a WebP of the same picture, and 400/404 for bad queries', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const view = await api(emu).get('/api/view?filename=example.png&type=input&preview=webp;90');
		const res = await fetch(view.headers.get('location')!);
		expect(res.headers.get('content-type')).toBe('image/webp');
		const meta = await sharp(new Uint8Array(await res.arrayBuffer())).metadata();
		expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 240]);
		const jpeg = await fetch((await api(emu).get('/api/view?filename=example.png&type=input&preview=jpeg;50')).headers.get('location')!);
		expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
		expect((await api(emu).get('/api/view?type=input')).status).toBe(400);
		expect((await api(emu).get('/api/view?filename=example.png&type=nowhere')).status).toBe(400);
		expect((await api(emu).get('/api/view?filename=missing.png&type=input')).status).toBe(404);
	});

	it('LoadImage downloads a signed storage URL (and only that)', async () => {
		await api(emu).upload('/api/upload/image', 'example.png', photo);
		const location = (await api(emu).get('/api/view?filename=example.png&type=input')).headers.get('location')!;
		const socket = await RecordingSocket.open(emu);
		const id = (await api(emu).submit(variant(imageEdit as ApiPrompt, { '1': { image: location } }))).body['prompt_id'] as string;
		const done = await socket.untilDone(id);
		expect(done.map((m) => m.type)).toContain('execution_success');
		socket.close();
	});
});
