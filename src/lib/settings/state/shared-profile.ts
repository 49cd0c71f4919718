/** A profile shared by link (`?profile=…` on the settings page): the draft it holds, or why it cannot be read. */
import { PROFILE_LINK_PARAM, readProfileLink, type ProfileDraft } from '$lib/settings/rules/profile-link';

export type { ProfileDraft } from '$lib/settings/rules/profile-link';

export type SharedProfile = { draft: ProfileDraft } | { problem: string } | null;

/** null when the address shares no profile. */
export function sharedProfile(url: URL): SharedProfile {
	const shared = url.searchParams.get(PROFILE_LINK_PARAM);
	if (shared === null) return null;
	const draft = readProfileLink(shared);
	return draft ? { draft } : { problem: 'This profile link is damaged or incomplete. Ask for a new one.' };
}
