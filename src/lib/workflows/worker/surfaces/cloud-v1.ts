/** The cloud workflow service's v1 API (spec A): job status by id, from-hash, outputs through a signed-URL redirect. */
import { ComfyApiSurface } from './comfy-api-surface';

export class CloudV1Surface extends ComfyApiSurface {
	readonly kind = 'cloud-v1' as const;
}
