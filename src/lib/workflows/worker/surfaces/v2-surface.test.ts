/**
 * The v2 adapter against the emulator's three v2 surfaces (managed, deployment, self-hosted proxy):
 * the whole life of a run with an image input, as the worker drives it.
 */
import { describe, expect, it } from 'vitest';
import { blake3 } from 'hash-wasm';
import { control } from '../../../../../emulator/workflow/test-support';
import { faults } from '../../../../../emulator/workflow/v2/helpers.test-util';
import { useWorkflowEmulator } from '../../../../../emulator/workflow/use-workflow-emulator';
import { png } from '../../../../../emulator/workflow/v2/fixtures';
import type { Emulator } from '../../../../../emulator/index';
import { ok } from '../../../core/protocol/errors';
import type { Profile } from '../../../core/rules/profile';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { createGuardedFetch } from '../../../core/worker/guarded-fetch';
import type { UploadRequest } from '../../../core/worker/guarded-upload';
import type { Connection } from '../../../core/worker/context';
import { DEFAULT_CAPABILITIES } from './capabilities';
import { V2Surface, type V2Dialect } from './v2-surface';
import type { JobHandle } from './surface';
import type { V2StreamEvent } from '../../protocol/v2-events';

const bed = useWorkflowEmulator();

function connectionTo(emu: Emulator, dialect: V2Dialect): Connection {
	const base = dialect === 'managed' ? emu.urls.workflow : dialect === 'deployment' ? emu.urls.deployment : emu.urls.selfHosted;
	const key = dialect === 'managed' ? emu.apiKey : dialect === 'deployment' ? emu.deploymentKey : undefined;
	const profile: Profile = {
		id: 'p1',
		name: dialect,
		preset: dialect === 'managed' ? 'cloud' : dialect === 'deployment' ? 'deployment' : 'self-hosted-proxy',
		workflowUrl: base,
		routerUrl: null,
		comfyUrl: emu.urls.workflow,
		createdAt: 0,
		updatedAt: 0
	};
	const allowedOrigins = [new URL(base).origin, new URL(emu.urls.workflow).origin];
	const fetch = createGuardedFetch({ allowedOrigins, appOrigin: 'http://localhost:5173' });
	// Node has no XMLHttpRequest: the upload goes through fetch here (progress is reported once, at the end).
	const upload = async (request: UploadRequest) => {
		const res = await globalThis.fetch(request.url, {
			method: 'POST',
			body: request.form,
			headers: { ...request.headers, ...(request.credential ? { Authorization: `Bearer ${request.credential.key}` } : {}) }
		});
		const body = await res.text();
		request.onProgress?.(1, 1);
		return ok({ status: res.status, header: (n: string) => res.headers.get(n), body });
	};
	return { profile, key, fetch, upload };
}

function surfaceOf(dialect: V2Dialect): V2Surface {
	const connection = connectionTo(bed.emu, dialect);
	return new V2Surface(connection, { ...DEFAULT_CAPABILITIES.v2 }, () => {}, dialect, bed.emu.urls.workflow);
}

async function sendImage(surface: V2Surface, bytes: Uint8Array): Promise<string> {
	const hash = await blake3(bytes);
	const offer = await surface.offerHash(hash, 'photo.png', 'image/png');
	if (!offer.ok) throw new Error(offer.error.message);
	if (offer.value.kind === 'known') return offer.value.name;
	const stored = await surface.uploadFile({
		file: new File([new Uint8Array(bytes)], 'photo.png', { type: 'image/png' }),
		name: 'photo.png',
		expectedHash: `blake3:${hash}`,
		onProgress: () => {}
	});
	if (!stored.ok) throw new Error(stored.error.message);
	return stored.value.name;
}

const imageJob = (image: string): ApiPrompt => ({
	'1': { class_type: 'LoadImage', inputs: { image } },
	'2': { class_type: 'SaveImage', inputs: { filename_prefix: 'v2', images: ['1', 0] } }
});

async function untilTerminal(surface: V2Surface, job: JobHandle) {
	for (let i = 0; i < 500; i++) {
		const read = await surface.read(job);
		if (read.ok && read.value.kind === 'status' && read.value.history) return read.value;
		await new Promise((r) => setTimeout(r, 20));
	}
	throw new Error('the job did not end');
}

describe.each(['managed', 'deployment', 'proxy'] as const)('v2 adapter on the %s surface', (dialect) => {
	it('uploads an image once, submits it as a core/ASSET reference, follows the stream and fetches the output', async () => {
		const surface = surfaceOf(dialect);
		const bytes = await png(40);
		const name = await sendImage(surface, bytes);
		expect(name).toMatch(/^core\/ASSET:/);
		// The same content again is known: offered by hash, no bytes sent.
		const again = await surface.offerHash(await blake3(bytes), 'photo.png', 'image/png');
		expect(again.ok && again.value).toEqual({ kind: 'known', name });
		// The form's preview of the chosen input reads it back by that name: the same bytes.
		const input = await surface.outputBytes({ filename: name, subfolder: '', type: 'input' });
		expect(input.ok && new Uint8Array(await input.value.arrayBuffer())).toEqual(bytes);

		const submitted = await surface.submit({
			prompt: imageJob(name),
			promptId: 'x',
			idempotencyKey: crypto.randomUUID(),
			clientId: 'c',
			partner: false
		});
		expect(submitted.ok).toBe(true);
		if (!submitted.ok) return;
		const events: V2StreamEvent[] = [];
		const streamed = await surface.stream(
			submitted.value,
			(e) => events.push(e),
			() => {},
			new AbortController().signal
		);
		expect(streamed.kind).toBe('ended');
		expect(events.some((e) => e.kind === 'status' && e.event.status === 'succeeded')).toBe(true);
		const end = await untilTerminal(surface, submitted.value);
		expect(end.state).toBe('completed');
		const ref = Object.values(end.history!.outputs)[0]?.images?.[0];
		expect(ref).toBeDefined();
		const blob = await surface.outputBytes(ref!);
		expect(blob.ok && blob.value.size).toBeGreaterThan(0);
	});

	it('a PreviewAny text is read through /assets/{id}/content into the history as named text (the proxy drops it)', async () => {
		const surface = surfaceOf(dialect);
		const prompt: ApiPrompt = {
			...imageJob(await sendImage(surface, await png(42))),
			'3': { class_type: 'PreviewAny', inputs: { source: 'a red fox at dawn' } }
		};
		const submitted = await surface.submit({ prompt, promptId: 'x', idempotencyKey: crypto.randomUUID(), clientId: 'c', partner: false });
		if (!submitted.ok) throw new Error('not submitted');
		const end = await untilTerminal(surface, submitted.value);
		const texts = end.history!.outputs['3'];
		if (dialect === 'proxy') expect(texts).toBeUndefined();
		else expect(texts).toEqual({ text: ['a red fox at dawn'], textNames: [expect.any(String)] });
		// Images are labelled by their Output name, not the asset id.
		const image = end.history!.outputs['2']?.images?.[0];
		expect(image?.label).toMatch(/^v2_\d+_\.png$/);
		expect(image?.label).not.toBe(image?.filename);
	});

	it('a retried submit with the same key leaves exactly one job', async () => {
		const surface = surfaceOf(dialect);
		const key = crypto.randomUUID();
		const request = {
			prompt: imageJob(await sendImage(surface, await png(41))),
			promptId: 'x',
			idempotencyKey: key,
			clientId: 'c',
			partner: false
		};
		const first = await surface.submit(request);
		// The answer was "lost": the worker sends the same body with the same key.
		const second = await surface.submit({ ...request });
		expect(first.ok && second.ok).toBe(true);
		if (first.ok && second.ok) expect(second.value.promptId).toBe(first.value.promptId);
	});

	it('a submit whose answer is dropped after the job was created leaves exactly one job, which runs to its end', async () => {
		const surface = surfaceOf(dialect);
		const prompt = imageJob(await sendImage(surface, await png(43)));
		// The proxy sits in front of a stock ComfyUI (the emulator's workflow origin in that scenario).
		if (dialect === 'proxy') await control(bed.emu, '/scenario', { name: 'comfyui-local' });
		await control(bed.emu, '/workflow/timing', { stepMs: 30 });
		const before = bed.emu.workflow.engine.book.jobs.size;
		await faults(bed.emu, { v2DropAnswers: 1 });
		const submitted = await surface.submit({ prompt, promptId: 'x', idempotencyKey: crypto.randomUUID(), clientId: 'c', partner: false });
		expect(submitted.ok).toBe(true);
		expect(bed.emu.workflow.engine.book.jobs.size).toBe(before + 1);
		if (submitted.ok) expect((await untilTerminal(surface, submitted.value)).state).toBe('completed');
	});

	it('refuses an invalid workflow with the node errors at their fields', async () => {
		const surface = surfaceOf(dialect);
		const bad: ApiPrompt = { '1': { class_type: 'NoSuchNode', inputs: {} } };
		const answer = await surface.submit({ prompt: bad, promptId: 'x', idempotencyKey: crypto.randomUUID(), clientId: 'c', partner: false });
		expect(answer.ok).toBe(false);
		if (!answer.ok) expect(answer.error.kind).toBe('rejected');
	});
});

describe('v2 adapter: cancel', () => {
	it('cancels a running job through urls.cancel', async () => {
		await control(bed.emu, '/workflow/timing', { stepMs: 200 });
		const surface = surfaceOf('managed');
		const prompt = imageJob(await sendImage(surface, await png(42)));
		const submitted = await surface.submit({ prompt, promptId: 'x', idempotencyKey: crypto.randomUUID(), clientId: 'c', partner: false });
		if (!submitted.ok) throw new Error('not submitted');
		expect((await surface.cancel([submitted.value])).ok).toBe(true);
		const end = await untilTerminal(surface, submitted.value);
		expect(['cancelled', 'completed']).toContain(end.state);
	});
});

describe('v2 adapter: links are followed, never built', () => {
	const sampler: ApiPrompt = {
		'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' } },
		'5': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
		'6': { class_type: 'CLIPTextEncode', inputs: { text: 'a boat', clip: ['4', 1] } },
		'3': {
			class_type: 'KSampler',
			inputs: {
				seed: 1,
				steps: 20,
				cfg: 8,
				sampler_name: 'euler',
				scheduler: 'normal',
				denoise: 1,
				model: ['4', 0],
				positive: ['6', 0],
				negative: ['6', 0],
				latent_image: ['5', 0]
			}
		},
		'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
		'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'v2', images: ['8', 0] } }
	};

	it('in v2-relocated-urls (the obvious paths answer 404) a run is read, streamed and cancelled through its urls', async () => {
		await control(bed.emu, '/scenario', { name: 'v2-relocated-urls' });
		await control(bed.emu, '/workflow/timing', { stepMs: 100 });
		const surface = surfaceOf('managed');
		const submitted = await surface.submit({
			prompt: sampler,
			promptId: 'x',
			idempotencyKey: crypto.randomUUID(),
			clientId: 'c',
			partner: false
		});
		if (!submitted.ok) throw new Error('not submitted');
		expect(submitted.value.links?.events).toContain('/api/v2/x/streams/');
		const events: V2StreamEvent[] = [];
		const stop = new AbortController();
		await surface.stream(
			submitted.value,
			(e) => {
				events.push(e);
				if (e.kind === 'progress') stop.abort();
			},
			() => {},
			stop.signal
		);
		expect(events.map((e) => e.kind)).toContain('progress');
		const read = await surface.read(submitted.value);
		expect(read.ok && read.value.kind).toBe('status');
		expect((await surface.cancel([submitted.value])).ok).toBe(true);
		expect((await untilTerminal(surface, submitted.value)).state).toBe('cancelled');
	});
});
