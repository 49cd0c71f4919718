import { describe, expect, it } from 'vitest';
import { ok } from '../../core/protocol/errors';
import { MemoryStore } from '../../core/worker/kv-store';
import { sendInput } from './input-uploader';
import type { FileUpload, HashOffer, WorkflowSurface } from './surfaces/surface';

/** A surface that answers offers with `offer` and records what it was asked. */
function fakeSurface(offer: HashOffer, onOffer: () => void = () => {}) {
	const asked: string[] = [];
	const uploads: FileUpload[] = [];
	const surface = {
		profileId: 'p',
		offerHash: async () => {
			asked.push('offer');
			onOffer();
			return ok(offer);
		},
		uploadFile: async (upload: FileUpload) => {
			uploads.push(upload);
			return ok({ name: upload.name, subfolder: '', type: 'input' as const });
		}
	} as unknown as WorkflowSurface;
	return { surface, asked, uploads };
}

const file = () => new File([new Uint8Array(3 * 1024 * 1024).fill(5)], 'cat.png', { type: 'image/png', lastModified: 1 });

describe('sending an input', () => {
	it('sends no bytes for content the service already has', async () => {
		const { surface, uploads } = fakeSurface({ kind: 'known', name: 'cat-known.png' });
		const sent = await sendInput(surface, new MemoryStore(), file(), {}, () => {});
		expect(sent.ok && sent.value).toMatchObject({ name: 'cat-known.png', via: 'from-hash', uploadedBytes: 0 });
		expect(uploads).toEqual([]);
	});

	it('uploads content the service does not have, with its hash to check', async () => {
		const { surface, uploads } = fakeSurface({ kind: 'unknown' });
		const sent = await sendInput(surface, new MemoryStore(), file(), {}, () => {});
		expect(sent.ok && sent.value.via).toBe('upload');
		expect(uploads[0]?.expectedHash).toMatch(/^blake3:[0-9a-f]{64}$/);
	});

	it('stops before anything is asked when cancelled while hashing', async () => {
		const { surface, asked, uploads } = fakeSurface({ kind: 'unknown' });
		const controller = new AbortController();
		controller.abort();
		const sent = await sendInput(surface, new MemoryStore(), file(), { signal: controller.signal }, () => {});
		expect(sent.ok ? undefined : sent.error.kind).toBe('cancelled');
		expect([asked, uploads]).toEqual([[], []]);
	});

	it('uploads nothing when cancelled while the service is asked about the hash', async () => {
		const controller = new AbortController();
		const { surface, asked, uploads } = fakeSurface({ kind: 'unknown' }, () => controller.abort());
		const sent = await sendInput(surface, new MemoryStore(), file(), { signal: controller.signal }, () => {});
		expect(sent.ok ? undefined : sent.error.kind).toBe('cancelled');
		expect(asked).toEqual(['offer']);
		expect(uploads).toEqual([]);
	});
});
