import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { LINK_KEY, LINK_LIMITS, makeShareLink, readShareLink } from './share-link';
import { EXAMPLE_WORKFLOWS } from '../examples/index';
import type { ApiPrompt } from '../../protocol/workflow-api';

const ORIGIN = 'https://runboard.example';
const textToImage = EXAMPLE_WORKFLOWS.find((w) => w.title === 'Text to image')!.prompt;
const fragmentOf = (url: string) => new URL(url).hash;

function b64(bytes: Uint8Array): string {
	return btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '');
}

describe('a share link', () => {
	it('carries the workflow and its values in the fragment, never in the path or query', () => {
		const made = makeShareLink(ORIGIN, { name: 'Text to image', prompt: textToImage, ui: null });
		if (!made.ok) throw new Error(made.message);
		const url = new URL(made.url);
		expect(url.pathname).toBe('/workflows');
		expect(url.search).toBe('');
		const read = readShareLink(url.hash);
		expect(read).toMatchObject({ ok: true, value: { name: 'Text to image', prompt: textToImage, ui: null } });
	});

	it('carries the editor workflow while it fits, then the API workflow, then says to share a bundle', () => {
		const ui = { nodes: [{ id: 1, type: 'KSampler', widgets_values: [1, 2] }], links: [] };
		const both = makeShareLink(ORIGIN, { name: 'w', prompt: textToImage, ui });
		expect(both).toMatchObject({ ok: true, carries: 'editor' });
		const apiChars = makeShareLink(ORIGIN, { name: 'w', prompt: textToImage, ui: null });
		const apiOnly = makeShareLink(ORIGIN, { name: 'w', prompt: textToImage, ui }, apiChars.chars);
		expect(apiOnly).toMatchObject({ ok: true, carries: 'api' });
		if (apiOnly.ok) expect(readShareLink(fragmentOf(apiOnly.url))).toMatchObject({ ok: true, value: { ui: null } });
		const tooLarge = makeShareLink(ORIGIN, { name: 'w', prompt: textToImage, ui }, 100);
		expect(tooLarge).toMatchObject({
			ok: false,
			message: expect.stringMatching(/too large for a link .* share it as a run bundle instead/)
		});
	});

	it('every example workflow fits in the fragment limit', () => {
		for (const example of EXAMPLE_WORKFLOWS) {
			const made = makeShareLink(ORIGIN, { name: example.title, prompt: example.prompt, ui: null });
			expect(made.ok && made.chars).toBeLessThan(LINK_LIMITS.fragmentChars);
		}
	});

	it('never carries a key or a URL with one', () => {
		const prompt: ApiPrompt = {
			'1': {
				class_type: 'PartnerNode',
				inputs: { api_key_comfy_org: 'comfyui-abcdefghijklmnopqrstuv', image_url: 'https://x.test/a.png?X-Goog-Signature=zz' }
			}
		};
		const made = makeShareLink(ORIGIN, { name: 'p', prompt, ui: null });
		if (!made.ok) throw new Error(made.message);
		const read = readShareLink(fragmentOf(made.url));
		const text = JSON.stringify(read);
		expect(text).not.toContain('comfyui-abcdefghijklmnopqrstuv');
		expect(text).not.toContain('X-Goog-Signature');
		expect(made.leftOut).toEqual(['1.inputs.api_key_comfy_org', '1.inputs.image_url']);
	});

	describe('from a stranger: refused with a reason in one line', () => {
		const refusal = (fragment: string) => {
			const read = readShareLink(fragment);
			if (read.ok) throw new Error('read');
			expect(read.error.message).not.toContain('\n');
			return read.error;
		};
		it('cut short, not base64, not JSON', () => {
			const made = makeShareLink(ORIGIN, { name: 'w', prompt: textToImage, ui: null });
			if (!made.ok) throw new Error();
			expect(refusal(fragmentOf(made.url).slice(0, 40)).message).toMatch(/damaged/);
			expect(refusal(`#${LINK_KEY}=%%%`).kind).toBe('corrupt');
			expect(refusal(`#${LINK_KEY}=${b64(deflateSync(new TextEncoder().encode('{nope')))}`).message).toMatch(/not valid JSON/);
			expect(refusal('#other=1').message).toBe('This link carries no workflow.');
		});
		it('a deflate bomb, an overlong link, JSON nested too deep', () => {
			const bomb = b64(deflateSync(new Uint8Array(3 * 1024 * 1024), { level: 9 }));
			expect(refusal(`#${LINK_KEY}=${bomb}`).kind).toBe('too-large');
			expect(refusal(`#${LINK_KEY}=${'A'.repeat(LINK_LIMITS.readChars + 1)}`).kind).toBe('too-large');
			const deep = '{"p":' + '['.repeat(100) + ']'.repeat(100) + '}';
			expect(refusal(`#${LINK_KEY}=${b64(deflateSync(new TextEncoder().encode(deep)))}`).kind).toBe('depth');
		});
	});
});
