import { describe, expect, it } from 'vitest';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { readBundle } from './bundle-read';
import { bundleSource, hashBytes, OUTPUT, PICTURE, writtenBytes } from './bundle.fixture';
import { BUNDLE_LIMITS } from './limits';
import { readZip } from './zip-read';

async function bundleEntries(): Promise<Zippable> {
	const { bytes } = await writtenBytes(bundleSource());
	const zip = readZip(bytes, BUNDLE_LIMITS);
	if (!zip.ok) throw new Error(zip.error.message);
	return Object.fromEntries(zip.value);
}

describe('a run bundle', () => {
	it('round-trips: the workflow, seeds, times, server version, and every file with its BLAKE3', async () => {
		const { bytes, manifest } = await writtenBytes(bundleSource());
		expect(manifest.inputs[0]).toMatchObject({ path: 'inputs/0123456789ab_cat.png', blake3: await hashBytes(PICTURE), bytes: 300 });
		const opened = await readBundle(bytes, hashBytes);
		if (!opened.ok) throw new Error(opened.error.message);
		expect(opened.value.manifest).toEqual(manifest);
		expect(opened.value.prompt['1']!.inputs['image']).toBe('0123456789ab_cat.png');
		expect(opened.value.files.get('outputs/ComfyUI_00001_.png')).toEqual(OUTPUT);
		expect(opened.value.manifest.server.version).toBe('0.3.66');
		expect(opened.value.manifest.seeds['3.seed']).toBe(42);
	});

	it('never carries a key, a token, or a URL with one in it', async () => {
		const source = bundleSource({
			prompt: {
				'1': { class_type: 'LoadImage', inputs: { image: '0123456789ab_cat.png' } },
				'4': {
					class_type: 'PartnerNode',
					inputs: {
						api_key: 'the-partner-key-123456',
						prompt: 'see https://user:pw@cdn.example.test/a.png?X-Amz-Signature=abc&size=2 and sk-abcdefghijklmnopqrstuvwx',
						auth_token: 'tok',
						url: 'https://storage.example.test/o.png?token=secret1&w=3'
					}
				}
			}
		});
		const { bytes, manifest } = await writtenBytes(source);
		const zip = readZip(bytes, BUNDLE_LIMITS);
		const text = new TextDecoder().decode(zip.ok ? zip.value.get('workflow/api.json') : undefined);
		for (const secret of ['the-partner-key-123456', 'X-Amz-Signature', 'user:pw', 'sk-abcdefghijklmnopqrstuvwx', 'secret1', '"tok"'])
			expect(text).not.toContain(secret);
		expect(text).toContain('https://cdn.example.test/a.png?size=2');
		expect(text).toContain('https://storage.example.test/o.png?w=3');
		expect(manifest.leftOut).toEqual(['4.inputs.api_key', '4.inputs.prompt', '4.inputs.auth_token', '4.inputs.url']);
	});

	it('leaves values under names that only look like credentials', async () => {
		const inputs = { author: 'Ada', tokenizer: 'clip_l', keyframe: 'k1', sort_key: 'name', max_tokens: 12 };
		const source = bundleSource({ prompt: { ...bundleSource().prompt, '5': { class_type: 'Note', inputs } } });
		const { manifest } = await writtenBytes(source);
		expect(manifest.leftOut).toEqual([]);
	});

	describe('from a stranger: every refusal says why in one line', () => {
		const refusal = async (entries: Zippable): Promise<string> => {
			const opened = await readBundle(zipSync(entries), hashBytes);
			if (opened.ok) throw new Error('opened');
			expect(opened.error.message).not.toContain('\n');
			return opened.error.message;
		};

		it('a file that is not a zip', async () => {
			const opened = await readBundle(strToU8('{"not":"a zip"}'), hashBytes);
			expect(opened).toMatchObject({ ok: false, error: { kind: 'not-a-bundle' } });
		});

		it('an entry path that leaves the bundle', async () => {
			const entries = await bundleEntries();
			expect(await refusal({ ...entries, '../evil.sh': strToU8('x') })).toMatch(/leaves the bundle/);
			expect(await refusal({ ...entries, '/etc/passwd': strToU8('x') })).toMatch(/absolute path/);
			expect(await refusal({ ...entries, 'inputs\\..\\x': strToU8('x') })).toMatch(/backslash/);
		});

		it('a changed input file', async () => {
			const entries = await bundleEntries();
			const changed = PICTURE.slice();
			changed[5] = changed[5]! ^ 1;
			expect(await refusal({ ...entries, 'inputs/0123456789ab_cat.png': changed })).toMatch(/does not match its BLAKE3 hash/);
		});

		it('an entry the manifest does not list', async () => {
			expect(await refusal({ ...(await bundleEntries()), 'inputs/extra.png': PICTURE })).toMatch(/does not list/);
		});

		it('JSON nested past the limit', async () => {
			const deep = '['.repeat(BUNDLE_LIMITS.jsonDepth + 1) + ']'.repeat(BUNDLE_LIMITS.jsonDepth + 1);
			expect(await refusal({ ...(await bundleEntries()), 'workflow/api.json': strToU8(deep) })).toMatch(/nests deeper than 64/);
		});

		it('a zip bomb: the inflated size is counted while inflating, whatever the directory says', async () => {
			// 4 MiB of zeros deflates to about 4 KiB; the limits are lowered so the test stays small and quick.
			const limits = { ...BUNDLE_LIMITS, entryBytes: 1024 * 1024, totalBytes: 2 * 1024 * 1024 };
			const bomb = zipSync({ 'outputs/zeros.bin': new Uint8Array(4 * 1024 * 1024) }, { level: 1 });
			const declared = await readBundle(bomb, hashBytes, limits);
			expect(declared).toMatchObject({ ok: false, error: { kind: 'too-large' } });
			// The directory lies (says 10 bytes): the count while inflating still stops it.
			const lying = bomb.slice();
			const view = new DataView(lying.buffer);
			for (let at = lying.length - 22; at >= 0; at--)
				if (view.getUint32(at, true) === 0x02014b50) {
					view.setUint32(at + 24, 10, true);
					break;
				}
			const opened = await readBundle(lying, hashBytes, limits);
			expect(opened).toMatchObject({ ok: false, error: { kind: 'too-large' } });
			if (!opened.ok) expect(opened.error.message).toMatch(/zip bomb/);
		});

		it('too many entries, or too much in all', async () => {
			const many: Zippable = {};
			for (let i = 0; i < 10; i++) many[`outputs/${i}.bin`] = new Uint8Array(10);
			expect(await readBundle(zipSync(many), hashBytes, { ...BUNDLE_LIMITS, entries: 5 })).toMatchObject({
				ok: false,
				error: { kind: 'too-large' }
			});
			expect(await readBundle(zipSync(many), hashBytes, { ...BUNDLE_LIMITS, totalBytes: 50 })).toMatchObject({
				ok: false,
				error: { kind: 'too-large' }
			});
		});

		it('a manifest of another kind or version', async () => {
			const entries = await bundleEntries();
			expect(await refusal({ ...entries, 'runboard-bundle.json': strToU8('{"format":"other"}') })).toMatch(/not a Runboard run bundle/);
			expect(await refusal({ ...entries, 'runboard-bundle.json': strToU8('{"format":"runboard-run-bundle","version":9}') })).toMatch(
				/version 9/
			);
		});
	});
});
