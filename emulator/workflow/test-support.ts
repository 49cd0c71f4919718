/**
 * Helpers for tests and the benchmark that talk to a running emulator over real HTTP and WebSocket.
 * Not used by the emulator itself.
 */
import WebSocket from 'ws';
import { decodeFrame, type Frame } from '../../src/lib/workflows/protocol/frames';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { createEmulator, DEFAULT_PORTS, type Emulator, type EmulatorOptions } from '../index';

/** An emulator on free ports only (every origin, including ones added later), so test workers never clash. */
export function startEmulator(options: Omit<EmulatorOptions, 'ports'> = {}): Promise<Emulator> {
	const ports = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((k) => [k, 0])) as EmulatorOptions['ports'];
	return createEmulator({ ...options, ports });
}

export interface JsonMessage {
	type: string;
	data: Record<string, unknown>;
}

export type Received =
	{ kind: 'json'; message: JsonMessage; at: number } | { kind: 'binary'; frame: Frame | undefined; raw: Uint8Array; at: number };

/** A socket that records everything it receives, with waits that resolve on a condition. */
export class RecordingSocket {
	readonly received: Received[] = [];
	private waiters: Array<() => void> = [];
	closed = false;

	private constructor(readonly ws: WebSocket) {
		ws.on('message', (data, isBinary) => {
			const bytes = data instanceof Buffer ? new Uint8Array(data) : new Uint8Array(Buffer.concat(data as Buffer[]));
			if (isBinary) {
				const decoded = decodeFrame(bytes);
				this.received.push({ kind: 'binary', frame: decoded.ok ? decoded.frame : undefined, raw: bytes, at: performance.now() });
			} else {
				this.received.push({
					kind: 'json',
					message: JSON.parse(Buffer.from(bytes).toString('utf8')) as JsonMessage,
					at: performance.now()
				});
			}
			for (const w of this.waiters.splice(0)) w();
		});
		ws.on('close', () => {
			this.closed = true;
			for (const w of this.waiters.splice(0)) w();
		});
	}

	static async open(
		emu: Emulator,
		options: { clientId?: string; token?: string | null; previewMetadata?: boolean } = {}
	): Promise<RecordingSocket> {
		const params = new URLSearchParams({ clientId: options.clientId ?? 'test-client' });
		if (options.token !== null) params.set('token', options.token ?? emu.apiKey);
		const ws = new WebSocket(`${emu.urls.workflow.replace('http', 'ws')}/ws?${params}`);
		const socket = new RecordingSocket(ws);
		await new Promise<void>((resolve, reject) => {
			ws.once('open', () => resolve());
			ws.once('error', reject);
		});
		if (options.previewMetadata) {
			ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
			await socket.until(() => socket.json('feature_flags').length > 0);
		}
		return socket;
	}

	json(type?: string, promptId?: string): JsonMessage[] {
		return this.received
			.filter((r): r is Extract<Received, { kind: 'json' }> => r.kind === 'json')
			.map((r) => r.message)
			.filter((m) => (type === undefined || m.type === type) && (promptId === undefined || m.data['prompt_id'] === promptId));
	}

	binary(): Array<Extract<Received, { kind: 'binary' }>> {
		return this.received.filter((r): r is Extract<Received, { kind: 'binary' }> => r.kind === 'binary');
	}

	/** Waits until `condition` holds, or fails after `timeoutMs`. */
	until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
		return new Promise((resolve, reject) => {
			const timer = setTimeout(
				() =>
					reject(
						new Error(
							`condition not met in ${timeoutMs} ms; got ${this.json()
								.map((m) => m.type)
								.join(',')}`
						)
					),
				timeoutMs
			);
			const check = () => {
				if (condition()) {
					clearTimeout(timer);
					resolve();
				} else this.waiters.push(check);
			};
			check();
		});
	}

	/** Waits for the run's final `executing` (node null or empty) and its terminal event. */
	async untilDone(promptId: string, timeoutMs = 15_000): Promise<JsonMessage[]> {
		const terminal = ['execution_success', 'execution_error', 'execution_interrupted'];
		await this.until(() => {
			const mine = this.json(undefined, promptId);
			return (
				mine.some((m) => terminal.includes(m.type)) &&
				mine.some((m) => m.type === 'executing' && (m.data['node'] === null || m.data['node'] === ''))
			);
		}, timeoutMs);
		return this.json(undefined, promptId);
	}

	close(): void {
		this.ws.close();
	}
}

export function api(emu: Emulator, headers: Record<string, string> = {}) {
	const base = emu.urls.workflow;
	const auth = { 'X-API-Key': emu.apiKey, ...headers };
	return {
		get: (path: string) => fetch(`${base}${path}`, { headers: auth, redirect: 'manual' }),
		post: (path: string, body: unknown) =>
			fetch(`${base}${path}`, {
				method: 'POST',
				headers: { ...auth, 'Content-Type': 'application/json' },
				body: typeof body === 'string' ? body : JSON.stringify(body)
			}),
		submit: async (prompt: ApiPrompt, extra: Record<string, unknown> = {}) => {
			const res = await fetch(`${base}/api/prompt`, {
				method: 'POST',
				headers: { ...auth, 'Content-Type': 'application/json' },
				body: JSON.stringify({ prompt, ...extra })
			});
			return { status: res.status, body: (await res.json()) as Record<string, unknown> };
		},
		upload: async (path: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}, type = 'image/png') => {
			const form = new FormData();
			form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
			for (const [k, v] of Object.entries(fields)) form.append(k, v);
			return fetch(`${base}${path}`, { method: 'POST', headers: auth, body: form });
		}
	};
}

export async function control(emu: Emulator, path: string, body: unknown = {}): Promise<unknown> {
	const res = await fetch(`${emu.urls.workflow}/__emulator${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
	return res.json();
}

/** A deep copy of an example workflow, with changes applied per node. */
export function variant(prompt: ApiPrompt, changes: Record<string, Record<string, unknown>> = {}): ApiPrompt {
	const copy = JSON.parse(JSON.stringify(prompt)) as ApiPrompt;
	for (const [id, inputs] of Object.entries(changes)) Object.assign(copy[id]!.inputs, inputs);
	return copy;
}
