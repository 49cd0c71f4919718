import { describe, expect, it } from 'vitest';
import { PROFILE_LINK_PARAM, profileLink, readProfileLink } from './profile-link';

const profile = {
	name: 'Studio ☁',
	preset: 'cloud' as const,
	workflowUrl: 'https://api.example.com',
	routerUrl: 'https://router.example.com'
};

describe('moving a profile to a phone', () => {
	it('round-trips name, kind and addresses through a link on the app origin', () => {
		const link = new URL(profileLink('https://runboard.example.org', profile));
		expect(link.origin + link.pathname).toBe('https://runboard.example.org/settings');
		expect(readProfileLink(link.searchParams.get(PROFILE_LINK_PARAM)!)).toEqual(profile);
	});

	it('never carries a key, even when the profile object has one', () => {
		const link = profileLink('https://x.test', { ...profile, apiKey: 'secret-key' } as typeof profile);
		expect(link).not.toContain('secret');
		expect(atob(new URL(link).searchParams.get(PROFILE_LINK_PARAM)!.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain('secret');
	});

	it('carries a self-hosted proxy with the ComfyUI behind it; links made before v2 still read', () => {
		const proxy = {
			name: 'Proxy',
			preset: 'self-hosted-proxy' as const,
			workflowUrl: 'http://127.0.0.1:8189',
			routerUrl: '',
			comfyUrl: 'http://127.0.0.1:8188'
		};
		const link = new URL(profileLink('https://x.test', proxy));
		expect(readProfileLink(link.searchParams.get(PROFILE_LINK_PARAM)!)).toEqual(proxy);
		expect(readProfileLink(btoa('{"n":"Old","p":"cloud","w":"https://a.test","r":""}'))).toEqual({
			name: 'Old',
			preset: 'cloud',
			workflowUrl: 'https://a.test',
			routerUrl: ''
		});
		expect(readProfileLink(btoa('{"p":"__proto__","w":"https://a.test"}'))).toBeUndefined();
	});

	it('refuses tampered or malformed links', () => {
		expect(readProfileLink('not base64 at all!')).toBeUndefined();
		expect(readProfileLink(btoa('{"p":"cloud","w":"javascript:alert(1)"}'))).toBeUndefined();
		expect(readProfileLink(btoa('{"p":"root","w":"https://a.test"}'))).toBeUndefined();
	});
});
