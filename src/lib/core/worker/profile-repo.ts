/**
 * Profiles and their keys in the worker's store. Keys live under their own prefixes, apart from
 * the profile records, and never leave the worker: reads for the page return `hasKey` and
 * `hasPartnerKey` only. The partner key (a self-hosted proxy's Comfy account key) is a second,
 * optional secret; profiles stored before it existed simply have none.
 */
import type { KeyValueStore } from './kv-store';
import type { Profile, ProfileView } from '../rules/profile';

import {
	ACTIVE_PROFILE_KEY as ACTIVE,
	API_KEY_KEY as KEY,
	PARTNER_KEY_KEY as PARTNER,
	PROFILE_KEY as PROFILE
} from '../protocol/storage-keys';

export class ProfileRepo {
	constructor(private readonly kv: KeyValueStore) {}

	async list(): Promise<Profile[]> {
		const rows = await this.kv.entries<Profile>(PROFILE);
		return rows.map(([, p]) => p).sort((a, b) => a.createdAt - b.createdAt);
	}

	async views(): Promise<ProfileView[]> {
		const keyed = new Set((await this.kv.keys(KEY)).map((k) => k.slice(KEY.length)));
		const partnerKeyed = new Set((await this.kv.keys(PARTNER)).map((k) => k.slice(PARTNER.length)));
		return (await this.list()).map((p) => ({ ...p, hasKey: keyed.has(p.id), hasPartnerKey: partnerKeyed.has(p.id) }));
	}

	get(id: string): Promise<Profile | undefined> {
		return this.kv.get<Profile>(PROFILE + id);
	}

	put(profile: Profile): Promise<void> {
		return this.kv.set(PROFILE + profile.id, profile);
	}

	async remove(id: string): Promise<void> {
		await this.kv.delete(PROFILE + id);
		await this.kv.delete(KEY + id);
		await this.kv.delete(PARTNER + id);
		if ((await this.activeId()) === id) await this.kv.delete(ACTIVE);
	}

	key(id: string): Promise<string | undefined> {
		return this.kv.get<string>(KEY + id);
	}

	setKey(id: string, key: string): Promise<void> {
		return this.kv.set(KEY + id, key);
	}

	forgetKey(id: string): Promise<void> {
		return this.kv.delete(KEY + id);
	}

	/** The Comfy account key sent as `extra_data.api_key_comfy_org` for partner nodes (self-hosted proxy only). */
	partnerKey(id: string): Promise<string | undefined> {
		return this.kv.get<string>(PARTNER + id);
	}

	setPartnerKey(id: string, key: string): Promise<void> {
		return this.kv.set(PARTNER + id, key);
	}

	forgetPartnerKey(id: string): Promise<void> {
		return this.kv.delete(PARTNER + id);
	}

	activeId(): Promise<string | undefined> {
		return this.kv.get<string>(ACTIVE);
	}

	setActive(id: string): Promise<void> {
		return this.kv.set(ACTIVE, id);
	}
}
