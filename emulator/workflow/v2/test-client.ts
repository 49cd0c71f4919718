/**
 * Test and benchmark side of v2: a small client per surface over real HTTP, and an SSE reader that
 * uses eventsource-parser (the parser the app's v2 client will use) on a streamed fetch body, as a
 * browser client that must send a Bearer header does. Not used by the emulator itself.
 */
import { createParser } from 'eventsource-parser';
import type { Emulator } from '../../index';
import type { ApiPrompt } from '../../../src/lib/workflows/protocol/workflow-api';
import type { SurfaceName } from './surface';

export interface SseEvent {
	event: string;
	data: Record<string, unknown>;
	id: string | undefined;
	at: number;
}

export interface SseRead {
	status: number;
	headers: Headers;
	/** The body when the answer was not a stream (an error envelope). */
	body: unknown;
	events: SseEvent[];
	comments: string[];
	retry: number[];
	/** How the stream ended: the server closed it, it broke (dropped), or the reader stopped. */
	ended: 'closed' | 'broken' | 'stopped';
	/** The raw text received, to check the framing. */
	raw: string;
}

export interface SseOptions {
	headers?: Record<string, string>;
	/** Stop reading once this holds (the reader aborts). */
	until?: (events: SseEvent[], comments: string[]) => boolean;
	timeoutMs?: number;
	onEvent?: (event: SseEvent) => void;
}

export async function readSse(url: string, options: SseOptions = {}): Promise<SseRead> {
	const abort = new AbortController();
	const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 10_000);
	const res = await fetch(url, { headers: options.headers ?? {}, signal: abort.signal });
	const read: SseRead = {
		status: res.status,
		headers: res.headers,
		body: undefined,
		events: [],
		comments: [],
		retry: [],
		ended: 'closed',
		raw: ''
	};
	if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
		clearTimeout(timer);
		const text = await res.text();
		read.body = text === '' ? undefined : JSON.parse(text);
		return read;
	}
	let stop = false;
	const parser = createParser({
		onEvent: (e) => {
			const event: SseEvent = {
				event: e.event ?? 'message',
				data: JSON.parse(e.data) as Record<string, unknown>,
				id: e.id,
				at: performance.now()
			};
			read.events.push(event);
			options.onEvent?.(event);
			if (options.until?.(read.events, read.comments)) stop = true;
		},
		onComment: (c) => {
			read.comments.push(c.trim());
			if (options.until?.(read.events, read.comments)) stop = true;
		},
		onRetry: (r) => read.retry.push(r)
	});
	const decoder = new TextDecoder();
	const reader = res.body!.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			const text = decoder.decode(value, { stream: true });
			read.raw += text;
			parser.feed(text);
			if (stop) {
				read.ended = 'stopped';
				abort.abort();
				break;
			}
		}
	} catch (error) {
		if (!abort.signal.aborted) read.ended = 'broken';
		else if (!stop) throw new Error(`SSE read timed out; got ${read.events.map((e) => e.event).join(',')}`, { cause: error });
		else read.ended = 'stopped';
	} finally {
		clearTimeout(timer);
	}
	return read;
}

export interface V2Answer<T = Record<string, unknown>> {
	status: number;
	headers: Headers;
	body: T;
}

/** A client of one surface: its origin, its credential, JSON helpers and an upload helper. */
export function v2Client(emu: Emulator, surface: SurfaceName, credential?: string | null) {
	const origin = surface === 'managed' ? emu.urls.workflow : surface === 'deployment' ? emu.urls.deployment : emu.urls.selfHosted;
	const key =
		credential === undefined ? (surface === 'managed' ? emu.apiKey : surface === 'deployment' ? emu.deploymentKey : null) : credential;
	const auth: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
	const url = (path: string) => new URL(path.startsWith('/api/') ? path : `/api/v2${path}`, origin).toString();
	const answer = async <T>(res: Response): Promise<V2Answer<T>> => {
		const text = await res.text();
		return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
	};
	return {
		origin,
		auth,
		url,
		get: async <T = Record<string, unknown>>(path: string, headers: Record<string, string> = {}) =>
			answer<T>(await fetch(url(path), { headers: { ...auth, ...headers }, redirect: 'manual' })),
		raw: (path: string, init: RequestInit = {}) =>
			fetch(url(path), { redirect: 'manual', ...init, headers: { ...auth, ...((init.headers as Record<string, string>) ?? {}) } }),
		post: async <T = Record<string, unknown>>(path: string, body: unknown, headers: Record<string, string> = {}) =>
			answer<T>(
				await fetch(url(path), {
					method: 'POST',
					headers: { ...auth, 'Content-Type': 'application/json', ...headers },
					body: typeof body === 'string' ? body : JSON.stringify(body)
				})
			),
		submit: async <T = Record<string, unknown>>(
			workflow: ApiPrompt | Record<string, unknown>,
			extra: Record<string, unknown> = {},
			headers: Record<string, string> = {}
		) =>
			answer<T>(
				await fetch(url('/jobs'), {
					method: 'POST',
					headers: { ...auth, 'Content-Type': 'application/json', ...headers },
					body: JSON.stringify({ workflow, ...extra })
				})
			),
		upload: async <T = Record<string, unknown>>(
			bytes: Uint8Array,
			fields: Record<string, string> = {},
			headers: Record<string, string> = {}
		) => {
			const form = new FormData();
			form.append('file', new Blob([new Uint8Array(bytes)]), fields['file_path'] ?? 'photo.png');
			const all = { content_type: 'image/png', file_path: 'photo.png', ...fields };
			for (const [k, v] of Object.entries(all)) form.append(k, v);
			return answer<T>(await fetch(url('/assets'), { method: 'POST', headers: { ...auth, ...headers }, body: form }));
		},
		events: (path: string, options: SseOptions = {}) =>
			readSse(new URL(path, url('/jobs')).toString(), { ...options, headers: { ...auth, ...options.headers } })
	};
}

export type V2Client = ReturnType<typeof v2Client>;
