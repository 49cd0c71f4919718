/** Workflows and bytes the v2 tests and the benchmark share (test side only). */
import sharp from 'sharp';
import textToImage from '../../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../../src/lib/workflows/protocol/workflow-api';
import { variant } from '../test-support';

const t2i = textToImage as ApiPrompt;

/** Text to image at 64×64 with `steps` sampler steps. */
export function smallJob(steps = 3, seed = 1): ApiPrompt {
	return variant(t2i, { '5': { width: 64, height: 64 }, '3': { steps, seed } });
}

/** Two outputs, one after the other: node 9's image is out while node 10 still samples. */
export function twoOutputJob(steps = 3): ApiPrompt {
	const w = smallJob(steps);
	w['10'] = { class_type: 'KSampler', inputs: { ...w['3']!.inputs, seed: 2, steps: steps * 4 } };
	w['11'] = { class_type: 'VAEDecode', inputs: { samples: ['10', 0], vae: ['4', 2] } };
	w['12'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'second', images: ['11', 0] } };
	return w;
}

export function assetRef(id: string, extra: Record<string, unknown> = {}) {
	return { __type: 'core/ASSET', info: { id, ...extra } };
}

/** LoadImage over an asset reference, saved again. */
export function loadAssetJob(ref: unknown): Record<string, unknown> {
	return {
		'1': { class_type: 'LoadImage', inputs: { image: ref } },
		'2': { class_type: 'SaveImage', inputs: { filename_prefix: 'from-asset', images: ['1', 0] } }
	};
}

export const UI_FORMAT_EXPORT = {
	last_node_id: 2,
	last_link_id: 1,
	nodes: [{ id: 1, type: 'LoadImage' }],
	links: [[1, 1, 0, 2, 0, 'IMAGE']],
	version: 0.4
};

/** A small PNG, different per `shade`. */
export async function png(shade = 10): Promise<Uint8Array> {
	const buf = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: shade, g: 100, b: 200 } } })
		.png()
		.toBuffer();
	return new Uint8Array(buf);
}
