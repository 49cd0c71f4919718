/** For tests: a small run bundle's parts, and BLAKE3 from hash-wasm (checked against b3sum elsewhere). */
import { blake3, createBLAKE3 } from 'hash-wasm';
import type { BundleManifest } from './bundle-manifest';
import { writeBundle, type BundleSource, type StreamingHash } from './bundle-write';
import type { HashBytes } from './bundle-read';

export const hashBytes: HashBytes = (bytes) => blake3(bytes);

/** The writer's hasher, piece by piece. */
export async function newHash(): Promise<StreamingHash> {
	const hasher = await createBLAKE3();
	hasher.init();
	return { update: (bytes) => void hasher.update(bytes), digestHex: () => hasher.digest('hex') };
}

/** Writes the bundle and reads it back as bytes, as a reader gets it. */
export async function writtenBytes(source: BundleSource): Promise<{ bytes: Uint8Array; manifest: BundleManifest }> {
	const { blob, manifest } = await writeBundle(source, newHash);
	return { bytes: new Uint8Array(await blob.arrayBuffer()), manifest };
}

export const PICTURE = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
export const OUTPUT = Uint8Array.from({ length: 500 }, (_, i) => (i * 13) % 256);

export function bundleSource(overrides: Partial<BundleSource> = {}): BundleSource {
	return {
		title: 'Image edit',
		status: 'succeeded',
		times: { created: 1_700_000_000_000, queued: 1_700_000_000_100, started: 1_700_000_000_200, finished: 1_700_000_001_000 },
		seeds: { '3.seed': 42 },
		server: { surface: 'cloud-v1', version: '0.3.66' },
		spend: null,
		prompt: {
			'1': { class_type: 'LoadImage', inputs: { image: '0123456789ab_cat.png' }, _meta: { title: 'Load Image' } },
			'2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
			'3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'ComfyUI' } }
		},
		ui: null,
		inputs: [{ nodeId: '1', input: 'image', name: '0123456789ab_cat.png', type: 'image/png', blob: new Blob([PICTURE]) }],
		outputs: [{ nodeId: '3', kind: 'image', name: 'ComfyUI_00001_.png', type: 'image/png', blob: new Blob([OUTPUT]) }],
		texts: [],
		now: 1_700_000_002_000,
		...overrides
	};
}
