/**
 * A link that opens a workflow: its name, API workflow (with the values) and, while it fits, the
 * editor workflow, as JSON deflated into the URL's fragment, which browsers never send to a server.
 * Past `LINK_LIMITS.fragmentChars` the editor workflow is dropped; past it again the link is not made
 * and the bundle is offered instead. Credentials are left out first, as in a bundle.
 * Reading a link is reading a stranger's input: length, inflated size and JSON depth are bounded.
 */
import { deflateSync } from 'fflate';
import { isObject, own, parseJsonWithin, str, type Json, type JsonObject } from '../../../core/protocol/json';
import type { ApiPrompt } from '../../protocol/workflow-api';
import { toApiPrompt } from '../workflow-import';
import { inflateRawCapped } from './capped-inflate';
import { accept, refuse, type Read } from './refusal';
import { withoutSecrets } from './secrets';

/** The fragment's key and format version: `#w1=…`. */
export const LINK_KEY = 'w1';
export const LINK_PATH = '/workflows';

export const LINK_LIMITS = {
	/**
	 * The fragment a link may carry (measured in docs/decisions/0062): every example and own
	 * workflow in API form fits, with room; a typical editor workflow fits too; a large one does not.
	 */
	fragmentChars: 8000,
	/** What a link is read up to: links made by other versions may be longer; past this it is refused unread. */
	readChars: 64 * 1024,
	/** The JSON inside, once inflated. */
	jsonBytes: 2 * 1024 * 1024,
	jsonDepth: 64
} as const;

export interface SharedWorkflow {
	name: string;
	prompt: ApiPrompt;
	ui: JsonObject | null;
}

export type MadeLink =
	{ ok: true; url: string; carries: 'editor' | 'api'; chars: number; leftOut: string[] } | { ok: false; chars: number; message: string };

function toBase64Url(bytes: Uint8Array): string {
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
	if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
	try {
		return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
	} catch {
		return undefined;
	}
}

const packed = (value: Json) => toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(value)), { level: 9 }));

/** The link for `appOrigin` that opens `workflow` as a preview: with the editor workflow while it fits, else the API one. */
export function makeShareLink(appOrigin: string, workflow: SharedWorkflow, limit: number = LINK_LIMITS.fragmentChars): MadeLink {
	const prompt = withoutSecrets(workflow.prompt as unknown as Json);
	const ui = workflow.ui ? withoutSecrets(workflow.ui, 'ui') : null;
	const name = workflow.name.slice(0, 200);
	const leftOut = [...prompt.leftOut, ...(ui?.leftOut ?? [])];
	const base = `${new URL(LINK_PATH, appOrigin).toString()}#${LINK_KEY}=`;
	if (ui) {
		const full = packed({ n: name, p: prompt.value, u: ui.value });
		if (full.length <= limit) return { ok: true, url: base + full, carries: 'editor', chars: full.length, leftOut };
	}
	const api = packed({ n: name, p: prompt.value });
	if (api.length <= limit) return { ok: true, url: base + api, carries: 'api', chars: api.length, leftOut: prompt.leftOut };
	return {
		ok: false,
		chars: api.length,
		message: `This workflow is too large for a link (${api.length} characters, at most ${limit}): share it as a run bundle instead.`
	};
}

/** The workflow a link's fragment (`#w1=…`, with or without `#`) carries, or why it is refused. */
export function readShareLink(fragment: string): Read<SharedWorkflow> {
	const hash = fragment.startsWith('#') ? fragment.slice(1) : fragment;
	const prefix = `${LINK_KEY}=`;
	if (!hash.startsWith(prefix)) return refuse('not-a-bundle', 'This link carries no workflow.');
	const body = hash.slice(prefix.length);
	if (body.length > LINK_LIMITS.readChars)
		return refuse('too-large', `This link is ${body.length} characters long; Runboard reads at most ${LINK_LIMITS.readChars}.`);
	const bytes = fromBase64Url(body);
	if (!bytes || bytes.length === 0) return refuse('corrupt', 'This link is damaged: its workflow is not readable (was it cut short?).');
	const inflated = inflateRawCapped(bytes, LINK_LIMITS.jsonBytes);
	if (!inflated.ok)
		return inflated.kind === 'too-large'
			? refuse('too-large', `This link's workflow inflates past ${LINK_LIMITS.jsonBytes / (1024 * 1024)} MiB: refused.`)
			: refuse('corrupt', 'This link is damaged: its workflow is not readable (was it cut short?).');
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes);
	} catch {
		return refuse('corrupt', 'This link is damaged: its workflow is not UTF-8 text.');
	}
	const parsed = parseJsonWithin(text, LINK_LIMITS.jsonDepth);
	if (!parsed.ok)
		return parsed.error instanceof RangeError
			? refuse('depth', `This link's workflow nests deeper than ${LINK_LIMITS.jsonDepth} levels.`)
			: refuse('corrupt', 'This link is damaged: its workflow is not valid JSON.');
	const value = parsed.value;
	if (!isObject(value)) return refuse('format', 'This link carries no workflow.');
	const prompt = toApiPrompt(own(value, 'p') ?? null);
	if (!prompt.ok) return refuse('format', `This link's workflow cannot be read: ${prompt.message}`);
	const ui = own(value, 'u');
	return accept({
		name: (str(value, 'n') ?? '').slice(0, 200) || 'Shared workflow',
		prompt: prompt.prompt,
		ui: isObject(ui) ? ui : null
	});
}
