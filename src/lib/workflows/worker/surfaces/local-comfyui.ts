/**
 * A ComfyUI server the user runs: no job-status route (its history is the state), from-hash only
 * on newer servers, events only to the client that submitted. Routes of newer servers (`/api/jobs`,
 * job cancel, `/api/features`) come with issue 15, each behind its capability flag.
 */
import { ComfyApiSurface } from './comfy-api-surface';

export class LocalComfyUiSurface extends ComfyApiSurface {
	readonly kind = 'local-comfyui' as const;
}
