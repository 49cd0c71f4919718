/**
 * The `/ws` endpoint: authenticates the upgrade with `token`, greets with `status`, answers
 * `feature_flags`, and fans events out. In the cloud every connection of a user gets the same
 * messages; in `comfyui-local` execution events go only to the submitting `clientId`.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EmulatorState } from '../state';
import { workflowScenario } from './scenario-rules';
import { encodeFrame, type ImageMime, type PreviewMetadata } from '../../src/lib/workflows/protocol/frames';

/** Who receives a message: every socket of the account, or the sockets of one clientId. */
export type Route = { to: 'all' } | { to: 'client'; clientId: string } | { to: 'nobody' };

/** Observes each preview frame once the socket has written it (the benchmark uses this). */
export type PreviewTimer = (timing: { sinceStepEndMs: number; sinceImageReadyMs: number }) => void;

/** Announced in `feature_flags` as `max_upload_size`, and enforced by the upload routes. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export interface ClientSocket {
	socket: WebSocket;
	clientId: string;
	supportsPreviewMetadata: boolean;
}

export class SocketHub {
	private readonly wss = new WebSocketServer({ noServer: true });
	readonly clients = new Set<ClientSocket>();
	/** The newest socket of each clientId: the local runtime sends only to it, as ComfyUI keys sockets by sid. */
	private readonly latest = new Map<string, ClientSocket>();
	private sessionCounter = 0;
	/** Fault: mangle binary frames (truncated length fields, unknown types). */
	corruptFrames = false;
	private corruptCounter = 0;
	previewTimer: PreviewTimer | undefined;
	/** Messages a new socket gets after `status` (the node a running job is at, as ComfyUI sends on reconnect). */
	greeting: ((clientId: string) => unknown[]) | undefined;
	/** True when the server's origin check refuses this upgrade (403, as for any request). */
	refusesOrigin: (headers: IncomingMessage['headers']) => boolean = () => false;

	constructor(
		private readonly state: EmulatorState,
		private readonly queueRemaining: () => number
	) {}

	attach(server: Server): void {
		server.on('upgrade', (request, socket, head) => this.upgrade(request, socket, head));
	}

	private refuse(socket: Duplex, status: number, reason: string): void {
		socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
		socket.destroy();
	}

	private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
		const url = new URL(request.url ?? '/', 'http://emulator');
		if (url.pathname !== '/ws' && url.pathname !== '/api/ws') return this.refuse(socket, 404, 'Not Found');
		this.state.count('GET /ws');
		if (this.refusesOrigin(request.headers)) return this.refuse(socket, 403, 'Forbidden');
		if (this.state.now() < this.state.faults.refuseSocketsUntil) return this.refuse(socket, 503, 'Service Unavailable');
		if (!workflowScenario(this.state.scenario).local && url.searchParams.get('token') !== this.state.apiKey) {
			return this.refuse(socket, 401, 'Unauthorized');
		}
		const clientId = url.searchParams.get('clientId') || `session-${++this.sessionCounter}`;
		this.wss.handleUpgrade(request, socket, head, (ws) => this.connected(ws, clientId));
	}

	private connected(socket: WebSocket, clientId: string): void {
		const client: ClientSocket = { socket, clientId, supportsPreviewMetadata: false };
		this.clients.add(client);
		this.latest.set(clientId, client);
		const forget = () => {
			this.clients.delete(client);
			if (this.latest.get(clientId) === client) this.latest.delete(clientId);
		};
		socket.on('close', forget);
		socket.on('error', forget);
		socket.on('message', (data, isBinary) => {
			if (isBinary) return;
			let msg: unknown;
			try {
				msg = JSON.parse(String(data));
			} catch {
				return; // ComfyUI ignores malformed client messages; so do we.
			}
			if (typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === 'feature_flags') {
				const flags = (msg as { data?: { supports_preview_metadata?: unknown } }).data;
				client.supportsPreviewMetadata = flags?.supports_preview_metadata === true;
				this.send(client, { type: 'feature_flags', data: { supports_preview_metadata: true, max_upload_size: MAX_UPLOAD_BYTES } });
			}
		});
		this.send(client, { type: 'status', data: { status: { exec_info: { queue_remaining: this.queueRemaining() } }, sid: clientId } });
		for (const message of this.greeting?.(clientId) ?? []) this.send(client, message);
	}

	send(client: ClientSocket, message: unknown): void {
		if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message));
	}

	sendBinary(client: ClientSocket, bytes: Uint8Array): void {
		if (client.socket.readyState === client.socket.OPEN) client.socket.send(bytes, { binary: true });
	}

	/** Sends to every socket, or only to `clientId`'s sockets when events are per client. */
	broadcast(message: unknown, clientId?: string): void {
		for (const client of this.clients) if (clientId === undefined || client.clientId === clientId) this.send(client, message);
	}

	private targets(route: Route): ClientSocket[] {
		if (route.to === 'all') return [...this.clients];
		if (route.to === 'nobody') return [];
		const client = this.latest.get(route.clientId);
		return client ? [client] : [];
	}

	sendJson(route: Route, message: unknown): void {
		const text = JSON.stringify(message);
		for (const client of this.targets(route)) if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
	}

	/** Type 4 to sockets that asked for preview metadata, type 1 (no job id) to the others. */
	sendPreview(route: Route, mime: ImageMime, image: Uint8Array, metadata: PreviewMetadata, stepEndedAt?: number): void {
		const imageReadyAt = performance.now();
		let plain: Uint8Array | undefined;
		let withMetadata: Uint8Array | undefined;
		for (const client of this.targets(route)) {
			if (client.socket.readyState !== client.socket.OPEN) continue;
			const frame = client.supportsPreviewMetadata
				? (withMetadata ??= this.mangle(encodeFrame({ kind: 'preview-with-metadata', metadata, mime, image })))
				: (plain ??= this.mangle(encodeFrame({ kind: 'preview', mime, image })));
			const timer = this.previewTimer;
			client.socket.send(frame, { binary: true }, () => {
				if (!timer) return;
				const now = performance.now();
				timer({ sinceStepEndMs: now - (stepEndedAt ?? imageReadyAt), sinceImageReadyMs: now - imageReadyAt });
			});
		}
	}

	sendText(route: Route, nodeId: string, text: string): void {
		const frame = this.mangle(encodeFrame({ kind: 'text', nodeId, text }));
		for (const client of this.targets(route)) this.sendBinary(client, frame);
	}

	/** Alternates two kinds of damage, so clients meet both a short frame and an unknown type. */
	private mangle(frame: Uint8Array): Uint8Array {
		if (!this.corruptFrames) return frame;
		const copy = new Uint8Array(frame);
		const view = new DataView(copy.buffer);
		if (this.corruptCounter++ % 2 === 0) {
			view.setUint32(4, 0x7fffffff, false);
			return copy;
		}
		view.setUint32(0, 99, false);
		return copy;
	}

	broadcastStatus(): void {
		this.broadcast({ type: 'status', data: { status: { exec_info: { queue_remaining: this.queueRemaining() } } } });
	}

	/** Drops every open socket abruptly (fault): clients see an abnormal close. */
	dropAll(): number {
		const n = this.clients.size;
		for (const client of this.clients) client.socket.terminate();
		this.clients.clear();
		this.latest.clear();
		return n;
	}

	close(): void {
		this.dropAll();
		this.wss.close();
	}
}
