/** Saving a profile the settings form sent: validated, stored with its keys, and made active when none is. */
import { fail, ok, type Result } from '../protocol/errors';
import { takesPartnerKey, validateProfileInput, type Profile, type ProfileInput, type ProfileView } from '../rules/profile';
import type { SaveProfileError } from '../protocol/worker-api';
import type { ProfileRepo } from './profile-repo';

export interface SaveOptions {
	newId: () => string;
	/** The runtime config's demo key, given to a new demo profile saved without one. */
	demoKey?: string;
}

export async function storeProfile(
	repo: ProfileRepo,
	input: ProfileInput,
	options: SaveOptions
): Promise<Result<ProfileView, SaveProfileError>> {
	const valid = validateProfileInput(input);
	if (!valid.ok) return fail(valid.error);
	const now = Date.now();
	const existing = input.id ? await repo.get(input.id) : undefined;
	if (input.id && !existing) return fail({ general: 'This profile no longer exists; it may have been deleted in another tab.' });
	const profile: Profile = {
		id: existing?.id ?? options.newId(),
		name: valid.value.name,
		preset: input.preset,
		workflowUrl: valid.value.workflowUrl,
		routerUrl: valid.value.routerUrl,
		...(valid.value.comfyUrl ? { comfyUrl: valid.value.comfyUrl } : {}),
		createdAt: existing?.createdAt ?? now,
		updatedAt: now
	};
	await repo.put(profile);
	const typedKey = input.apiKey?.trim();
	if (typedKey) await repo.setKey(profile.id, typedKey);
	else if (!existing && input.preset === 'demo' && options.demoKey !== undefined) await repo.setKey(profile.id, options.demoKey);
	// Only a self-hosted proxy keeps a Comfy account key; a profile changed to another kind drops it.
	const typedPartnerKey = input.partnerKey?.trim();
	if (!takesPartnerKey(profile.preset)) await repo.forgetPartnerKey(profile.id);
	else if (typedPartnerKey) await repo.setPartnerKey(profile.id, typedPartnerKey);
	if (!(await repo.activeId())) await repo.setActive(profile.id);
	return ok({
		...profile,
		hasKey: (await repo.key(profile.id)) !== undefined,
		hasPartnerKey: (await repo.partnerKey(profile.id)) !== undefined
	});
}
