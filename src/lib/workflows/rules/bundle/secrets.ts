/**
 * What never leaves in a bundle or a link: keys, tokens, partner keys, and URLs that carry one.
 * A workflow's own values can hold them (a partner node's key input, a signed link pasted into a
 * URL field), so every value is walked before it is written: a value under a secret-sounding name
 * is emptied, a string shaped like a key is emptied, and a URL keeps its address but loses its
 * credentials and any query parameter that could be one. What was left out is listed, by where.
 */
import type { Json } from '../../../core/protocol/json';

/** Words of a field's name that make its value a credential (`api_key`, `api_key_comfy_org`, `authToken`, `Authorization`, …). */
const SECRET_WORDS = new Set([
	'token',
	'secret',
	'password',
	'passwd',
	'authorization',
	'auth',
	'bearer',
	'credential',
	'credentials',
	'cookie',
	'signature',
	'apikey'
]);
/** A `key` after one of these words is a credential; `key` alone is too common (`keyframe`, a sort key) to count. */
const KEY_OWNERS = new Set(['api', 'partner', 'private', 'access', 'secret', 'account']);

/** Whether a field's name says its value is a credential: by whole words, so `author` or `tokenizer` are not. */
export function isSecretName(name: string): boolean {
	const words = name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean);
	return words.some((word, i) => SECRET_WORDS.has(word) || (word === 'key' && i > 0 && KEY_OWNERS.has(words[i - 1]!)));
}

/** Query parameters of signed or keyed URLs (S3, GCS, Azure SAS, CloudFront, plain `?key=`). */
const SECRET_PARAM =
	/^(x-amz-.*|x-goog-.*|sig|signature|se|sp|sv|st|skoid|sktid|policy|key-pair-id|expires|key|code|auth|token|access_token|api_key|apikey|.*token.*|.*secret.*|.*key)$/i;
/** Words shaped like credentials, anywhere in a text: provider keys, JWTs, `Bearer …`. */
const SECRET_SHAPE =
	/\b(?:sk|pk|rk|ak|key|comfyui|fal|r8)[-_][A-Za-z0-9_-]{16,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*|\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>]+/gi;

/** A URL with its userinfo, fragment and credential-like query parameters removed. */
export function urlWithoutSecrets(text: string): string {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return text;
	}
	const secretParams = [...url.searchParams.keys()].filter((name) => SECRET_PARAM.test(name));
	if (!url.username && !url.password && !url.hash && secretParams.length === 0) return text;
	url.username = '';
	url.password = '';
	url.hash = '';
	for (const name of secretParams) url.searchParams.delete(name);
	return url.toString();
}

function textWithoutSecrets(text: string): string {
	return text.replace(SECRET_SHAPE, '').replace(URL_IN_TEXT, (url) => urlWithoutSecrets(url));
}

export interface Cleaned<T> {
	value: T;
	/** Where something was left out, as `path.to.field`. */
	leftOut: string[];
}

/** `value` with every credential left out (see the file comment); the walk is bounded by the JSON depth checked before. */
export function withoutSecrets<T extends Json>(value: T, at = ''): Cleaned<T> {
	const leftOut: string[] = [];
	const walk = (v: Json, path: string, name: string): Json => {
		if (typeof v === 'string') {
			if (v !== '' && isSecretName(name)) {
				leftOut.push(path);
				return '';
			}
			const clean = textWithoutSecrets(v);
			if (clean !== v) leftOut.push(path);
			return clean;
		}
		if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}[${i}]`, name));
		if (v !== null && typeof v === 'object') {
			const out: Record<string, Json> = Object.create(null) as Record<string, Json>;
			for (const [key, item] of Object.entries(v)) {
				const child = walk(item, path ? `${path}.${key}` : key, key);
				Object.defineProperty(out, key, { value: child, writable: true, enumerable: true, configurable: true });
			}
			return out;
		}
		return v;
	};
	return { value: walk(value, at, '') as T, leftOut };
}

/** Whether text (a link, a bundle's JSON) still carries one of `secrets` (the keys this device holds), or a credential-shaped string. */
export function carriesSecret(text: string, secrets: readonly string[]): boolean {
	return secrets.some((s) => s.length >= 8 && text.includes(s));
}
