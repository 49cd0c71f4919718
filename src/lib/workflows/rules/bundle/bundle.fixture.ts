/** For tests: a small run bundle's parts, and BLAKE3 from hash-wasm (checked against b3sum elsewhere). */
import { blake3 } from 'hash-wasm';
import type { BundleSource } from './bundle-write';
import type { HashBytes } from './bundle-read';

export const hashBytes: HashBytes = (bytes) => blake3(bytes);

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
		inputs: [{ nodeId: '1', input: 'image', name: '0123456789ab_cat.png', type: 'image/png', bytes: PICTURE }],
		outputs: [{ nodeId: '3', kind: 'image', name: 'ComfyUI_00001_.png', type: 'image/png', bytes: OUTPUT }],
		texts: [],
		now: 1_700_000_002_000,
		...overrides
	};
}
