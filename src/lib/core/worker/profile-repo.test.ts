import { describe, expect, it } from 'vitest';
import type { Profile } from '../rules/profile';
import { MemoryStore } from './kv-store';
import { ProfileRepo } from './profile-repo';

const proxy: Profile = {
	id: 'p1',
	name: 'Proxy',
	preset: 'self-hosted-proxy',
	workflowUrl: 'http://127.0.0.1:8189',
	routerUrl: null,
	comfyUrl: 'http://127.0.0.1:8188',
	createdAt: 1,
	updatedAt: 1
};

describe('ProfileRepo keys', () => {
	it('stores the Comfy account key apart from the profile and the token; views say only whether each is saved', async () => {
		const kv = new MemoryStore();
		const repo = new ProfileRepo(kv);
		await repo.put(proxy);
		await repo.setKey('p1', 'proxy-token');
		await repo.setPartnerKey('p1', 'comfy-account');
		expect(await repo.partnerKey('p1')).toBe('comfy-account');
		expect(await repo.key('p1')).toBe('proxy-token');
		expect(await kv.get('profile:p1')).toEqual(proxy);
		const views = await repo.views();
		expect(views).toEqual([{ ...proxy, hasKey: true, hasPartnerKey: true }]);
		expect(JSON.stringify(views)).not.toMatch(/comfy-account|proxy-token/);
	});

	it('reads a profile stored before the partner key existed as having none', async () => {
		const kv = new MemoryStore();
		await kv.set('profile:p1', proxy);
		const repo = new ProfileRepo(kv);
		expect(await repo.views()).toEqual([{ ...proxy, hasKey: false, hasPartnerKey: false }]);
		expect(await repo.partnerKey('p1')).toBeUndefined();
	});

	it('forgets each key alone, and both with the profile', async () => {
		const kv = new MemoryStore();
		const repo = new ProfileRepo(kv);
		await repo.put(proxy);
		await repo.setKey('p1', 'proxy-token');
		await repo.setPartnerKey('p1', 'comfy-account');
		await repo.forgetPartnerKey('p1');
		expect(await repo.views()).toMatchObject([{ hasKey: true, hasPartnerKey: false }]);
		await repo.setPartnerKey('p1', 'comfy-account');
		await repo.remove('p1');
		expect(await kv.keys('')).toEqual([]);
	});
});
