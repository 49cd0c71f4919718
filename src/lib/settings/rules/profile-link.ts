/**
 * A link that moves a profile to another device: it carries the name, kind and addresses, and
 * never the API key, which is typed or pasted on the other device.
 */
import { isObject, str, tryParseJson } from '../../core/protocol/json';
import { normalizeBaseUrl, PRESETS, type PresetId, type Profile } from '../../core/rules/profile';

export const PROFILE_LINK_PARAM = 'profile';

export interface ProfileDraft {
	name: string;
	preset: PresetId;
	workflowUrl: string;
	routerUrl: string;
	/** A self-hosted proxy's ComfyUI; links made before it existed have none. */
	comfyUrl?: string;
}

function toBase64Url(text: string): string {
	const bytes = new TextEncoder().encode(text);
	let binary = '';
	for (const b of bytes) binary += String.fromCharCode(b);
	return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | undefined {
	try {
		const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
		return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
	} catch {
		return undefined;
	}
}

/** The link for `appOrigin` that opens a pre-filled "new profile" form; the key is left out. */
export function profileLink(
	appOrigin: string,
	profile: Pick<Profile, 'name' | 'preset' | 'workflowUrl' | 'routerUrl' | 'comfyUrl'>
): string {
	const payload = {
		n: profile.name,
		p: profile.preset,
		w: profile.workflowUrl,
		r: profile.routerUrl ?? '',
		...(profile.comfyUrl ? { c: profile.comfyUrl } : {})
	};
	const url = new URL('/settings', appOrigin);
	url.searchParams.set(PROFILE_LINK_PARAM, toBase64Url(JSON.stringify(payload)));
	return url.toString();
}

/** Reads a shared profile from a link's parameter; anything malformed is refused, never guessed. */
export function readProfileLink(param: string): ProfileDraft | undefined {
	const text = fromBase64Url(param);
	const value = text === undefined ? undefined : tryParseJson(text);
	if (!isObject(value)) return undefined;
	const preset = str(value, 'p');
	const workflow = normalizeBaseUrl(str(value, 'w') ?? '', 'workflowUrl', true);
	const router = normalizeBaseUrl(str(value, 'r') ?? '', 'routerUrl', false);
	const comfy = normalizeBaseUrl(str(value, 'c') ?? '', 'comfyUrl', false);
	if (!preset || !Object.hasOwn(PRESETS, preset) || !workflow.ok || !router.ok || !comfy.ok) return undefined;
	return {
		name: (str(value, 'n') ?? '').slice(0, 80),
		preset: preset as PresetId,
		workflowUrl: workflow.value!,
		routerUrl: router.value ?? '',
		...(comfy.value ? { comfyUrl: comfy.value } : {})
	};
}
