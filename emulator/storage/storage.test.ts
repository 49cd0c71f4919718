import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../index';
import { startEmulator } from '../workflow/test-support';
import { UrlSigner, formatGoogDate, parseGoogDate } from './signing';
import { BlobStore } from './blobs';

describe('UrlSigner', () => {
	const signer = new UrlSigner();
	const now = Date.UTC(2026, 10, 21, 6, 0, 0);
	const url = new URL(signer.sign('http://127.0.0.1:1', '/o/blake3%3Aab/x.png', 60, now));

	it('writes GCS V4 query parameters a client can read the expiry from', () => {
		expect(url.searchParams.get('X-Goog-Algorithm')).toBe('GOOG4-HMAC-SHA256');
		expect(url.searchParams.get('X-Goog-Date')).toBe('20261121T060000Z');
		expect(url.searchParams.get('X-Goog-Expires')).toBe('60');
		expect(parseGoogDate(formatGoogDate(now))).toBe(now);
	});

	it('verifies until the expiry, then says expired', () => {
		expect(signer.verify(url, now + 60_000)).toEqual({ ok: true });
		expect(signer.verify(url, now + 60_001)).toEqual({ ok: false, reason: 'expired' });
	});

	it.each(['X-Goog-Expires', 'X-Goog-Date', 'X-Goog-Signature'])('calls a changed %s tampered', (param) => {
		const changed = new URL(url);
		changed.searchParams.set(param, param === 'X-Goog-Signature' ? '00' : param === 'X-Goog-Date' ? '20261121T060001Z' : '6000');
		expect(signer.verify(changed, now)).toEqual({ ok: false, reason: 'tampered' });
	});

	it("calls a URL without a signature missing, and another signer's URL tampered", () => {
		const bare = new URL(url);
		bare.searchParams.delete('X-Goog-Signature');
		expect(signer.verify(bare, now)).toEqual({ ok: false, reason: 'missing' });
		expect(new UrlSigner().verify(url, now)).toEqual({ ok: false, reason: 'tampered' });
	});
});

describe('BlobStore', () => {
	it('dedupes by BLAKE3 and finds by sha256 too', async () => {
		const store = new BlobStore();
		const a = await store.put(new TextEncoder().encode('abc'), 'text/plain');
		const b = await store.put(new TextEncoder().encode('abc'), 'text/plain');
		expect(a).toBe(b);
		// BLAKE3("abc") and SHA-256("abc"), the published test vectors.
		expect(a.hash).toBe('blake3:6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
		expect(store.find('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')).toBe(a);
		store.clear();
		expect(store.find(a.hash)).toBeUndefined();
	});
});

describe('storage origin over HTTP', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator();
	});
	afterAll(async () => emu.close());

	it('serves a signed blob to anyone, 404s an unknown one, and records a cookie as a leak', async () => {
		const blob = await emu.workflow.engine.saveFile('output', 'x', 'txt', Buffer.from('hello'), 'text/plain');
		const stored = emu.workflow.engine.files.get('output', blob.filename)!;
		const storageOf = (hash: string) => fetch(new URL(`/o/${encodeURIComponent(hash)}/x.txt`, emu.urls.storage));
		expect((await storageOf(stored.hash)).status).toBe(403);
		const signedUrl = (
			await fetch(`${emu.urls.workflow}/api/view?filename=${blob.filename}`, { headers: { 'X-API-Key': emu.apiKey }, redirect: 'manual' })
		).headers.get('location')!;
		const ok = await fetch(signedUrl);
		expect(await ok.text()).toBe('hello');
		const head = await fetch(signedUrl, { method: 'HEAD' });
		expect(head.status).toBe(200);
		const cookie = await fetch(signedUrl, { headers: { Cookie: 'session=1' } });
		expect(cookie.status).toBe(403);
		const leaks = (await (await fetch(`${emu.urls.storage}/__emulator/leaks`)).json()) as {
			leaks: Array<{ carried: string[]; method: string }>;
		};
		expect(leaks.leaks.at(-1)).toMatchObject({ carried: ['cookie'], method: 'GET' });
	});
});
