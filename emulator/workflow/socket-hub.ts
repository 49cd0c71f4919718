/**
 * The `/ws` endpoint: authenticates the upgrade with `token`, greets with `status`, answers
 * `feature_flags`, and fans events out. In the cloud every connection of a user gets the same
 * messages; in `comfyui-local` execution events go only to the submitting `clientId`.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EmulatorState } from '../state';

export interface ClientSocket {
	socket: WebSocket;
	clientId: string;
	supportsPreviewMetadata: boolean;
}

export class SocketHub {
	private readonly wss = new WebSocketServer({ noServer: true });
	readonly clients = new Set<ClientSocket>();
	private sessionCounter = 0;

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
		if (this.state.now() < this.state.faults.refuseSocketsUntil) return this.refuse(socket, 503, 'Service Unavailable');
		if (this.state.scenario !== 'comfyui-local' && url.searchParams.get('token') !== this.state.apiKey) {
			return this.refuse(socket, 401, 'Unauthorized');
		}
		const clientId = url.searchParams.get('clientId') || `session-${++this.sessionCounter}`;
		this.wss.handleUpgrade(request, socket, head, (ws) => this.connected(ws, clientId));
	}

	private connected(socket: WebSocket, clientId: string): void {
		const client: ClientSocket = { socket, clientId, supportsPreviewMetadata: false };
		this.clients.add(client);
		socket.on('close', () => this.clients.delete(client));
		socket.on('error', () => this.clients.delete(client));
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
				this.send(client, { type: 'feature_flags', data: { supports_preview_metadata: true, max_upload_size: 104857600 } });
			}
		});
		this.send(client, { type: 'status', data: { status: { exec_info: { queue_remaining: this.queueRemaining() } }, sid: clientId } });
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

	broadcastStatus(): void {
		this.broadcast({ type: 'status', data: { status: { exec_info: { queue_remaining: this.queueRemaining() } } } });
	}

	/** Drops every open socket abruptly (fault): clients see an abnormal close. */
	dropAll(): number {
		const n = this.clients.size;
		for (const client of this.clients) client.socket.terminate();
		this.clients.clear();
		return n;
	}

	close(): void {
		this.dropAll();
		this.wss.close();
	}
}
