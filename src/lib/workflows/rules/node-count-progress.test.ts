import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../protocol/workflow-api';
import { nodesFromCount } from './node-count-progress';

/** A chain 1 → 2 → … → n, as the real-server check runs it (EmptyImage, ImageScale hops, SaveImage). */
function chain(n: number): ApiPrompt {
	const prompt: ApiPrompt = { '1': { class_type: 'EmptyImage', inputs: { width: 64 } } };
	for (let i = 2; i <= n; i++) prompt[String(i)] = { class_type: 'ImageScale', inputs: { image: [String(i - 1), 0] } };
	return prompt;
}

/** Text to image: a loader feeding two encoders, a latent, the sampler, decode and save. */
const textToImage: ApiPrompt = {
	'4': { class_type: 'CheckpointLoaderSimple', inputs: {} },
	'5': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1] } },
	'6': { class_type: 'CLIPTextEncode', inputs: { clip: ['4', 1] } },
	'7': { class_type: 'EmptyLatentImage', inputs: {} },
	'3': { class_type: 'KSampler', inputs: { model: ['4', 0], positive: ['5', 0], negative: ['6', 0], latent_image: ['7', 0] } },
	'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
	'9': { class_type: 'SaveImage', inputs: { images: ['8', 0] } }
};

describe('what a count of finished nodes says about each node', () => {
	it('in a chain the count says exactly which nodes are done, which runs and which wait', () => {
		expect(nodesFromCount(chain(14), 0)).toEqual({ done: [], waiting: [...Array(13)].map((_, i) => String(i + 2)), running: '1' });
		const five = nodesFromCount(chain(14), 5);
		expect(five.done).toEqual(['1', '2', '3', '4', '5']);
		expect(five.running).toBe('6');
		expect(five.waiting).toHaveLength(8);
	});

	it('all counted: everything done, nothing running', () => {
		expect(nodesFromCount(chain(3), 3)).toEqual({ done: ['1', '2', '3'], waiting: [], running: null });
	});

	it('where the order is open, only what every order agrees on is said', () => {
		// After 4 of 7: the loader, encoders and latent may run in any order, but all four precede the sampler.
		const four = nodesFromCount(textToImage, 4);
		expect(four.done.sort()).toEqual(['4', '5', '6', '7']);
		expect(four.running).toBe('3');
		// After 2: the loader is sure (only the latent could precede it); which of 5, 6, 7 ran is not known.
		const two = nodesFromCount(textToImage, 2);
		expect(two.done).toEqual(['4']);
		expect(two.waiting.sort()).toEqual(['3', '8', '9']);
		expect(two.running).toBeNull();
	});

	it('a link to a node outside the prompt, or a node feeding itself, is ignored', () => {
		const odd: ApiPrompt = {
			a: { class_type: 'X', inputs: { x: ['zz', 0], y: ['a', 0] } },
			b: { class_type: 'Y', inputs: { i: ['a', 0] } }
		};
		expect(nodesFromCount(odd, 1)).toEqual({ done: ['a'], waiting: [], running: 'b' });
	});
});
