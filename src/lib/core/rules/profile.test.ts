import { describe, expect, it } from 'vitest';
import {
	isLoopbackOrPrivateHost,
	takesPartnerKey,
	normalizeBaseUrl,
	profileOrigins,
	scrubToken,
	validateProfileInput,
	workflowSocketUrl
} from './profile';

describe('profiles', () => {
	it('normalises base URLs and explains what is wrong with bad ones', () => {
		expect(normalizeBaseUrl(' https://api.example.com/v1/ ', 'workflowUrl', true)).toEqual({
			ok: true,
			value: 'https://api.example.com/v1'
		});
		expect(normalizeBaseUrl('', 'routerUrl', false)).toEqual({ ok: true, value: null });
		expect(normalizeBaseUrl('', 'workflowUrl', true).ok).toBe(false);
		expect(normalizeBaseUrl('ftp://x', 'workflowUrl', true)).toMatchObject({ ok: false, error: { message: /http/ } });
		expect(normalizeBaseUrl('https://u:p@x.test', 'workflowUrl', true)).toMatchObject({ ok: false, error: { message: /credentials/ } });
		expect(normalizeBaseUrl('https://x.test/?a=1', 'workflowUrl', true)).toMatchObject({ ok: false });
	});

	it('validates a whole profile, reporting each field', () => {
		const result = validateProfileInput({ name: ' ', preset: 'cloud', workflowUrl: 'nope', routerUrl: 'also nope' });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(Object.keys(result.error).sort()).toEqual(['name', 'routerUrl', 'workflowUrl']);
	});

	it('lists the http and ws origins a profile may reach', () => {
		expect(profileOrigins({ workflowUrl: 'https://a.test/x', routerUrl: 'http://127.0.0.1:9' }).sort()).toEqual(
			['https://a.test', 'wss://a.test', 'http://127.0.0.1:9', 'ws://127.0.0.1:9'].sort()
		);
	});

	it('builds the socket URL with clientId and token, and scrubs the token for display', () => {
		const url = workflowSocketUrl('https://a.test/base/', 'client-1', 'k&y');
		expect(url).toBe('wss://a.test/base/ws?clientId=client-1&token=k%26y');
		expect(scrubToken(url)).toBe('wss://a.test/base/ws?clientId=client-1&token=<redacted>');
	});

	it.each([
		['localhost', true],
		['127.0.0.1', true],
		['[::1]', true],
		['192.168.1.20', true],
		['10.0.0.1', true],
		['172.20.0.1', true],
		['172.32.0.1', false],
		['example.com', false],
		['8.8.8.8', false]
	])('%s is loopback or private: %s', (host, expected) => {
		expect(isLoopbackOrPrivateHost(host)).toBe(expected);
	});
});

describe('v2 profile kinds', () => {
	it('a self-hosted proxy needs the ComfyUI address behind it, whose origin its requests may reach', () => {
		const base = { name: 'Proxy', preset: 'self-hosted-proxy' as const, workflowUrl: 'http://127.0.0.1:8189', routerUrl: '' };
		expect(validateProfileInput({ ...base, comfyUrl: '' }).ok).toBe(false);
		const valid = validateProfileInput({ ...base, comfyUrl: 'http://127.0.0.1:8188/' });
		expect(valid.ok && valid.value.comfyUrl).toBe('http://127.0.0.1:8188');
		expect(profileOrigins({ workflowUrl: base.workflowUrl, routerUrl: null, comfyUrl: 'http://127.0.0.1:8188' })).toContain(
			'http://127.0.0.1:8188'
		);
	});

	it('other kinds keep no ComfyUI address', () => {
		const valid = validateProfileInput({
			name: 'D',
			preset: 'deployment',
			workflowUrl: 'https://d.example',
			routerUrl: '',
			comfyUrl: 'http://x.test'
		});
		expect(valid.ok && valid.value.comfyUrl).toBeNull();
	});

	it.each([
		['self-hosted-proxy', true],
		['deployment', false],
		['cloud', false],
		['local-comfyui', false],
		['demo', false]
	] as const)('%s keeps a separate Comfy account key for partner nodes: %s', (preset, expected) => {
		expect(takesPartnerKey(preset)).toBe(expected);
	});

	it('a typed partner key is not part of the validated profile (it is stored apart, like the key)', () => {
		const valid = validateProfileInput({
			name: 'Proxy',
			preset: 'self-hosted-proxy',
			workflowUrl: 'http://127.0.0.1:8189',
			routerUrl: '',
			comfyUrl: 'http://127.0.0.1:8188',
			partnerKey: 'comfy-account'
		});
		expect(valid.ok).toBe(true);
		expect(JSON.stringify(valid)).not.toContain('comfy-account');
	});
});
