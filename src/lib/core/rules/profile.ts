/**
 * The rules of connection profiles (their types are in `core/protocol/profile.ts`): a name, the workflow service base URL, the router base URL (optional: a
 * local ComfyUI has none), and an API key that is stored apart from the profile and never
 * returned to the page (the page only learns whether one is saved).
 */
import { credentialFor, credentialPlacement } from './credential';
import { fail, ok, type Result } from '../protocol/errors';
import type { PresetId, Profile, ProfileFieldErrors, ProfileInput } from '../protocol/profile';

export type { PresetId, Profile, ProfileFieldErrors, ProfileInput, ProfileView } from '../protocol/profile';

export interface Preset {
	id: PresetId;
	label: string;
	description: string;
	workflowUrl: string;
	routerUrl: string;
	needsKey: boolean;
	comfyUrl?: string;
}

export const LOCAL_COMFYUI_URL = 'http://127.0.0.1:8188';
export const LOCAL_PROXY_URL = 'http://127.0.0.1:8189';

export const PRESETS: Record<PresetId, Preset> = {
	demo: {
		id: 'demo',
		label: 'Demo (local emulator)',
		description: 'Both services, emulated on this computer: no account needed, nothing leaves the machine.',
		workflowUrl: '',
		routerUrl: '',
		needsKey: true
	},
	'local-comfyui': {
		id: 'local-comfyui',
		label: 'Local ComfyUI',
		description: 'A ComfyUI server on this computer. Start it with --enable-cors-header so this app may call it.',
		workflowUrl: LOCAL_COMFYUI_URL,
		routerUrl: '',
		needsKey: false
	},
	cloud: {
		id: 'cloud',
		label: 'Cloud',
		description: 'The hosted workflow service and model router: type their URLs and your API key.',
		workflowUrl: '',
		routerUrl: '',
		needsKey: true
	},
	deployment: {
		id: 'deployment',
		label: 'Deployment',
		description: 'One deployment endpoint of the v2 jobs API: its address and its Bearer key.',
		workflowUrl: '',
		routerUrl: '',
		needsKey: true
	},
	'self-hosted-proxy': {
		id: 'self-hosted-proxy',
		label: 'Self-hosted proxy',
		description:
			'The v2 proxy in front of your ComfyUI. Start both with --enable-cors-header and this app’s origin. A key only if the proxy was started with --token.',
		workflowUrl: LOCAL_PROXY_URL,
		routerUrl: '',
		needsKey: false,
		comfyUrl: LOCAL_COMFYUI_URL
	}
};

/** The kinds of profile whose workflow runs always go through the v2 jobs API. */
export function isV2Preset(preset: PresetId): preset is 'deployment' | 'self-hosted-proxy' {
	return preset === 'deployment' || preset === 'self-hosted-proxy';
}

/**
 * Whether a profile kind keeps a second secret, the Comfy account key for partner nodes: only the
 * self-hosted proxy, whose own key is a static token and not an account key. The other kinds send
 * their one key as `api_key_comfy_org` (or v1's `api_key_service_org`).
 */
export function takesPartnerKey(preset: PresetId): preset is 'self-hosted-proxy' {
	return preset === 'self-hosted-proxy';
}

/** The label of that second secret, as the form shows it and as warnings name it. */
export const PARTNER_KEY_LABEL = 'Comfy account key (for partner nodes)';

type UrlField = 'workflowUrl' | 'routerUrl' | 'comfyUrl';
export type NormalizeResult = Result<string | null, { field: UrlField; message: string }>;

/** A base URL: http(s), no query or fragment, no trailing slash. Empty means "none". */
export function normalizeBaseUrl(text: string, field: UrlField, required: boolean): NormalizeResult {
	const trimmed = text.trim();
	if (trimmed === '')
		return required ? fail({ field, message: 'Enter the service address, for example https://api.example.com' }) : ok(null);
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return fail({ field, message: `"${trimmed}" is not a URL. Include the scheme, for example http://127.0.0.1:8188` });
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail({ field, message: 'Use an http:// or https:// address.' });
	if (url.username || url.password) return fail({ field, message: 'Do not put credentials in the address; use the API key field.' });
	if (url.search || url.hash) return fail({ field, message: 'Leave out the query (?...) and fragment (#...).' });
	return ok(url.origin + url.pathname.replace(/\/+$/, ''));
}

export function validateProfileInput(
	input: ProfileInput
): Result<{ name: string; workflowUrl: string; routerUrl: string | null; comfyUrl: string | null }, ProfileFieldErrors> {
	const errors: ProfileFieldErrors = {};
	const name = input.name.trim();
	if (name === '') errors.name = 'Give the profile a name.';
	else if (name.length > 80) errors.name = 'Keep the name under 80 characters.';
	const workflow = normalizeBaseUrl(input.workflowUrl, 'workflowUrl', true);
	if (!workflow.ok) errors.workflowUrl = workflow.error.message;
	const router = normalizeBaseUrl(input.routerUrl, 'routerUrl', false);
	if (!router.ok) errors.routerUrl = router.error.message;
	const proxy = input.preset === 'self-hosted-proxy';
	const comfy = proxy ? normalizeBaseUrl(input.comfyUrl ?? '', 'comfyUrl', true) : ok(null);
	if (!comfy.ok) errors.comfyUrl = comfy.error.message;
	if (!workflow.ok || !router.ok || !comfy.ok || errors.name) return fail(errors);
	return ok({ name, workflowUrl: workflow.value!, routerUrl: router.value, comfyUrl: comfy.value });
}

/** The origins a profile's key may be sent to, and the only ones its requests may reach. */
export function profileOrigins(profile: Pick<Profile, 'workflowUrl' | 'routerUrl' | 'comfyUrl'>): string[] {
	const origins = new Set<string>();
	for (const base of [profile.workflowUrl, profile.routerUrl, profile.comfyUrl]) {
		if (!base) continue;
		const url = new URL(base);
		origins.add(url.origin);
		url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
		origins.add(url.origin);
	}
	return [...origins];
}

export function workflowSocketUrl(workflowUrl: string, clientId: string, apiKey: string | undefined): string {
	const url = new URL(workflowUrl.replace(/\/+$/, '') + '/ws');
	url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
	url.searchParams.set('clientId', clientId);
	const credential = credentialFor(apiKey, 'socket-token');
	if (credential) {
		const placement = credentialPlacement(credential);
		url.searchParams.set(placement.name, placement.value);
	}
	return url.toString();
}

/** Replaces any `token=` value in a URL-ish string so a socket URL can be shown or logged. */
export function scrubToken(text: string): string {
	return text.replace(/([?&]token=)[^&#\s]*/gi, '$1<redacted>');
}

export function isLoopbackOrPrivateHost(hostname: string): boolean {
	const h = hostname.replace(/^\[|\]$/g, '');
	if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
	const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
	if (!m) return h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80');
	const [a, b] = [Number(m[1]), Number(m[2])];
	return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}
