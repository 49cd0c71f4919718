/**
 * A connection profile as it is stored and as the page sees it: a name, the workflow service base
 * URL, the router base URL (optional: a local ComfyUI has none), and an API key that is stored apart
 * from the profile and never returned to the page. Types only; the rules are `core/rules/profile.ts`.
 */

export type PresetId = 'demo' | 'local-comfyui' | 'cloud' | 'deployment' | 'self-hosted-proxy';

export interface Profile {
	id: string;
	name: string;
	preset: PresetId;
	workflowUrl: string;
	routerUrl: string | null;
	/**
	 * A self-hosted v2 proxy's ComfyUI (node definitions come from there: the proxy does not serve
	 * `object_info`). Absent on profiles stored before it existed and on every other kind.
	 */
	comfyUrl?: string | null;
	createdAt: number;
	updatedAt: number;
}

/** What the page sees: the profile plus whether its keys are saved, never the keys themselves. */
export interface ProfileView extends Profile {
	hasKey: boolean;
	/** A self-hosted proxy's Comfy account key (for partner nodes) is saved; false on every other kind. */
	hasPartnerKey: boolean;
}

export interface ProfileInput {
	id?: string;
	name: string;
	preset: PresetId;
	workflowUrl: string;
	routerUrl: string;
	/** Only for a self-hosted proxy: the ComfyUI behind it. */
	comfyUrl?: string;
	/** A new key to save; empty or undefined keeps the saved one. */
	apiKey?: string;
	/** Only for a self-hosted proxy: a new Comfy account key for partner nodes; empty or undefined keeps the saved one. */
	partnerKey?: string;
}

export interface ProfileFieldErrors {
	name?: string;
	workflowUrl?: string;
	routerUrl?: string;
	comfyUrl?: string;
}
