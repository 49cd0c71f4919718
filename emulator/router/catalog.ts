/**
 * The partner-model catalog: 120+ models over ten providers. Each provider is a family with one way of
 * returning results (see `delivery`), modelled on the families of the spec's result-asset table.
 * Prices are internal (spend accounting only) and must never reach a response.
 */
import { ROUTER_LIMITS } from '../../src/lib/models/protocol/router-api';

export type ModelKind =
	'text-to-image' | 'image-to-image' | 'inpainting' | 'lora' | 'upscale' | 'video' | 'image-to-video' | 'tts' | 'llm' | 'unauthored';

/** Which OpenAPI dialect the schema document uses; `3.1-as-3.0` is labelled 3.0 but uses 3.1 keywords. */
export type SchemaDialect = '3.0' | '3.1' | '3.1-as-3.0';

/**
 * How the provider family returns assets:
 * - `copied-24h` / `copied-12h`: assets copied to the service's storage origin, signed for that long;
 * - `provider-cdn`: references on the provider's CDN origin (no CORS headers), the provider's own expiry;
 * - `inline-or-gcs`: `response.videos[]` entries with `bytesBase64Encoded` or a signed `gcsUri` (24 h);
 * - `inline`: base64 bytes in JSON; `raw`: the bytes themselves as the body; `json`: no assets.
 */
export type Delivery = 'copied-24h' | 'copied-12h' | 'provider-cdn' | 'inline-or-gcs' | 'inline' | 'raw' | 'json';

export interface CatalogModel {
	id: string;
	provider: string;
	model: string;
	billing: { charges_on_policy_rejection: string };
	kind: ModelKind;
	dialect: SchemaDialect;
	delivery: Delivery;
	/** Internal price per run in USD cents. Never on the wire. */
	priceCents: number;
	/** False for models the demo account is not entitled to (403 forbidden). */
	entitled: boolean;
	/** Whether the provider is on the allowlist that sends `X-Service-Credits-Used`. */
	sendsCreditsUsed: boolean;
	/** Last-frame image (video family A) or draft-cache asset (image family) in the result. */
	extraAsset: boolean;
}

interface ProviderFamily {
	provider: string;
	charges: string;
	sendsCreditsUsed?: boolean;
	entitled?: boolean;
	models: Array<{ name: string; kind: ModelKind; dialect?: SchemaDialect; delivery: Delivery; price: number; extra?: boolean }>;
}

const sizes = ['', '-turbo', '-pro', '-ultra'];

/** The provider whose documents are shaped like Cog's. */
export const COG_PROVIDER = 'cogwork';

function variants(
	bases: string[],
	suffixes: string[],
	make: (name: string, i: number) => ProviderFamily['models'][number]
): ProviderFamily['models'] {
	const out: ProviderFamily['models'] = [];
	let i = 0;
	for (const base of bases) for (const suffix of suffixes) out.push(make(`${base}${suffix}`, i++));
	return out;
}

function families(): ProviderFamily[] {
	return [
		{
			// The image-provider family of the asset table: every asset copied, 24 h, draft cache on "pro" models.
			provider: 'lumen',
			charges: 'no',
			sendsCreditsUsed: true,
			models: [
				...variants(['flux-1', 'flux-2', 'aurora'], sizes, (name, i) => ({
					name,
					kind: 'text-to-image',
					dialect: i % 3 === 0 ? '3.0' : '3.1',
					delivery: 'copied-24h',
					price: 3 + (i % 4) * 2,
					extra: name.endsWith('-pro')
				})),
				...variants(['flux-1-redux', 'aurora-remix'], ['', '-pro'], (name) => ({
					name,
					kind: 'image-to-image',
					delivery: 'copied-24h',
					price: 4
				})),
				...variants(['flux-1-fill', 'aurora-fill'], ['', '-pro'], (name) => ({
					name,
					kind: 'inpainting',
					delivery: 'copied-24h',
					price: 5
				})),
				...variants(['flux-1-lora', 'aurora-lora'], ['', '-fast'], (name) => ({ name, kind: 'lora', delivery: 'copied-24h', price: 4 }))
			]
		},
		{
			// Video family A: video models copied 24 h with a last frame; its image models are not covered.
			provider: 'kestrel',
			charges: 'yes',
			models: [
				// fal documents whose file inputs carry `_fal_ui_field` / `ui.field` / `contentMediaType` hints.
				{ name: 'keyframes-v1', kind: 'image-to-video', delivery: 'copied-24h', price: 90 },
				...variants(['kestrel-v1', 'kestrel-v2', 'kestrel-v2-master'], ['-text-to-video', '-image-to-video'], (name) => ({
					name,
					kind: name.endsWith('image-to-video') ? 'image-to-video' : 'video',
					delivery: 'copied-24h',
					price: name.includes('master') ? 280 : 90,
					extra: true
				})),
				...variants(['kolor-image', 'kolor-image-v2'], ['', '-hd'], (name) => ({
					name,
					kind: 'text-to-image',
					delivery: 'provider-cdn',
					price: 6
				}))
			]
		},
		{
			// Video family B: every model's finished video copied, 12 h.
			provider: 'tidal',
			charges: 'no',
			models: variants(['wave-1', 'wave-2', 'surge'], ['-t2v', '-i2v', '-t2v-fast'], (name) => ({
				name,
				kind: name.includes('i2v') ? 'image-to-video' : 'video',
				dialect: '3.1-as-3.0',
				delivery: 'copied-12h',
				price: name.includes('fast') ? 40 : 120
			}))
		},
		{
			// The multimodal family: every generated image and the finished video copied, 24 h.
			provider: 'prism',
			charges: 'per_attempt_review',
			models: [
				...variants(['prism-image', 'prism-image-2'], sizes, (name) => ({ name, kind: 'text-to-image', delivery: 'copied-24h', price: 4 })),
				...variants(['prism-edit'], ['', '-2'], (name) => ({ name, kind: 'image-to-image', delivery: 'copied-24h', price: 4 })),
				...variants(['prism-motion'], ['', '-2', '-lite'], (name) => ({
					name,
					kind: 'video',
					delivery: 'copied-24h',
					price: 150,
					extra: true
				}))
			]
		},
		{
			// The further video family: response.videos[] with inline bytes or a signed gcsUri.
			provider: 'vertex',
			charges: 'yes',
			models: [
				...variants(['veo-2', 'veo-3', 'veo-3-fast'], ['', '-preview'], (name) => ({
					name,
					kind: 'video',
					delivery: 'inline-or-gcs',
					price: 300
				})),
				...variants(['imagen-3', 'imagen-4'], ['', '-fast', '-ultra'], (name) => ({
					name,
					kind: 'text-to-image',
					delivery: 'inline',
					price: 4
				}))
			]
		},
		{
			// Cog (Replicate-style) documents: inputs with `x-order` and no `required`, token-stream outputs.
			provider: COG_PROVIDER,
			charges: 'no',
			models: [
				{ name: 'sdxl-img2img', kind: 'image-to-image', delivery: 'provider-cdn', price: 3 },
				{ name: 'llama-3-8b-instruct', kind: 'llm', delivery: 'json', price: 1 },
				{ name: 'mistral-7b-stream', kind: 'llm', delivery: 'json', price: 1 }
			]
		},
		{
			// Raw bytes as the body, OpenAPI 3.0 documents (nullable, example).
			provider: 'stratus',
			charges: 'yes',
			models: [
				...variants(['sd-3', 'sd-3-5', 'core'], ['', '-large', '-medium', '-turbo'], (name) => ({
					name,
					kind: 'text-to-image',
					dialect: '3.0',
					delivery: 'raw',
					price: 4
				})),
				...variants(['upscale'], ['-fast', '-conservative', '-creative'], (name) => ({
					name,
					kind: 'upscale',
					dialect: '3.0',
					delivery: 'raw',
					price: 8
				})),
				...variants(['sd-3-inpaint'], ['', '-large'], (name) => ({ name, kind: 'inpainting', dialect: '3.0', delivery: 'raw', price: 5 }))
			]
		},
		{
			provider: 'sonora',
			charges: 'no',
			models: variants(['speech-1', 'speech-2', 'voice-hd'], ['', '-turbo', '-multilingual'], (name) => ({
				name,
				kind: 'tts',
				delivery: 'raw',
				price: 2
			}))
		},
		{
			provider: 'quill',
			charges: 'no',
			models: [
				...variants(['quill-3', 'quill-4', 'quill-mini'], ['', '-instruct', '-json'], (name) => ({
					name,
					kind: 'llm',
					delivery: 'json',
					price: 1
				})),
				// Its schema document has a self-referencing $ref (see schemas/text.ts).
				{ name: 'quill-outline', kind: 'llm', delivery: 'json', price: 1 }
			]
		},
		{
			// Community models: unauthored schemas (any object), results on the provider's CDN.
			provider: 'openforge',
			charges: 'pending_policy_review',
			models: variants(
				['community-sdxl', 'community-anime', 'community-audio', 'community-lineart', 'pixel-art'],
				['', '-v2', '-xl'],
				(name) => ({
					name,
					kind: 'unauthored',
					delivery: name.startsWith('pixel') ? 'raw' : 'provider-cdn',
					price: 2
				})
			)
		},
		{
			provider: 'atelier-enterprise',
			charges: 'no',
			entitled: false,
			models: variants(['studio-image', 'studio-video'], ['', '-max'], (name) => ({
				name,
				kind: name.includes('video') ? 'video' : 'text-to-image',
				delivery: 'copied-24h',
				price: name.includes('video') ? 200 : 10
			}))
		}
	];
}

/**
 * Test data, not a plausible model: segments at the spec's length limits (64 / 128 characters; id 193).
 * Only in an emulator started with `catalogLimitCases` (the router's unit tests), so the demo catalog
 * that `npm start` shows stays one a person could meet.
 */
function limitCaseFamilies(): ProviderFamily[] {
	return [
		{
			provider: 'p'.repeat(ROUTER_LIMITS.providerSegmentMaxLength - 8) + '-longest',
			charges: 'no',
			models: [
				{ name: 'm'.repeat(ROUTER_LIMITS.modelSegmentMaxLength - 8) + '-longest', kind: 'text-to-image', delivery: 'copied-24h', price: 3 }
			]
		}
	];
}

/** The catalog's own models; `size` (the catalog-size setting) trims it or fills it with numbered copies. */
export function buildCatalog(size?: number | null, limitCases = false): CatalogModel[] {
	const base = baseCatalog(limitCases);
	if (size === undefined || size === null || size === base.length) return base;
	if (size < base.length) return base.slice(0, size);
	// Copies of the entitled models with short names, so every copy has a schema, a kind and a price.
	const sources = base.filter((m) => m.entitled && m.model.length <= 100);
	const models = base.slice();
	for (let i = 0; models.length < size; i++) {
		const source = sources[i % sources.length]!;
		const model = `${source.model}-r${Math.floor(i / sources.length) + 1}`;
		models.push({ ...source, id: `${source.provider}/${model}`, model });
	}
	return models;
}

function baseCatalog(limitCases: boolean): CatalogModel[] {
	const models: CatalogModel[] = [];
	for (const family of limitCases ? [...families(), ...limitCaseFamilies()] : families()) {
		for (const m of family.models) {
			models.push({
				id: `${family.provider}/${m.name}`,
				provider: family.provider,
				model: m.name,
				billing: { charges_on_policy_rejection: family.charges },
				kind: m.kind,
				dialect: m.dialect ?? '3.1',
				delivery: m.delivery,
				priceCents: m.price,
				entitled: family.entitled ?? true,
				sendsCreditsUsed: family.sendsCreditsUsed ?? false,
				extraAsset: m.extra ?? false
			});
		}
	}
	return models;
}

/** The list entry as the wire shows it: no price, no internal fields. */
export function listEntry(model: CatalogModel): {
	id: string;
	provider: string;
	model: string;
	billing: { charges_on_policy_rejection: string };
} {
	return { id: model.id, provider: model.provider, model: model.model, billing: { ...model.billing } };
}
