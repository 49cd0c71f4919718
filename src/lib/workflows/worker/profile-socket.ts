/**
 * The active profile's live socket (v1 service and local ComfyUI), opened by the leader: its URL and
 * auth check, and the decoding of what it hears (JSON events, binary preview frames) for the run
 * tracker. The core decides when to open and close it (`useLiveLink`); this decides how.
 */
import { responseError, readJson } from '../../core/rules/http-response';
import { credentialFor } from '../../core/rules/credential';
import { PRESETS, isV2Preset, workflowSocketUrl, type Profile } from '../../core/rules/profile';
import type { SocketState } from '../../core/protocol/socket-state';
import type { WorkerContext } from '../../core/worker/context';
import type { LiveLink } from '../../core/worker/live-link';
import { LiveSocket, type AuthCheck } from './live-socket';
import { decodeFrame } from '../protocol/frames';
import { parseServerEvent } from '../protocol/workflow-events';
import type { SocketMessage } from './socket-message';

export class ProfileSocket {
	private readonly listeners = new Set<(message: SocketMessage) => void>();

	constructor(private readonly ctx: WorkerContext) {}

	subscribe(listener: (message: SocketMessage) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Opens the profile's socket, or tells why there is none (a v2 profile needs none, a missing key refuses it). */
	open(profile: Profile, key: string | undefined, onState: (state: SocketState) => void): LiveLink | null {
		// v2 profiles have no profile socket: each job's live events come over its own stream (V2StreamWatch).
		if (isV2Preset(profile.preset)) {
			onState({ status: 'open', queueRemaining: undefined });
			return null;
		}
		if (!key && PRESETS[profile.preset].needsKey) {
			onState({ status: 'auth-failed', message: 'No API key is saved for this profile. Add one in Settings.' });
			return null;
		}
		const socket: LiveSocket = new LiveSocket({
			url: workflowSocketUrl(profile.workflowUrl, this.ctx.clientId(), key),
			checkAuth: () => this.checkAuth(profile),
			...(this.ctx.serverGate ? { gate: this.ctx.serverGate(new URL(profile.workflowUrl).origin) } : {}),
			onState,
			onText: (text) => {
				const parsed = parseServerEvent(text);
				if (!parsed.ok) return this.ctx.emit({ type: 'protocol-error', profileId: profile.id, message: parsed.message });
				if (parsed.event.type === 'status') socket.noteQueue(parsed.event.queueRemaining);
				this.deliver({ kind: 'event', profileId: profile.id, event: parsed.event });
			},
			onBinary: (buffer) => {
				const decoded = decodeFrame(new Uint8Array(buffer));
				if (!decoded.ok) return this.ctx.emit({ type: 'protocol-error', profileId: profile.id, message: decoded.error.message });
				this.deliver({ kind: 'frame', profileId: profile.id, frame: decoded.frame });
			}
		});
		socket.start();
		return socket;
	}

	private deliver(message: SocketMessage): void {
		for (const listener of this.listeners) listener(message);
	}

	/** After a refused socket: does the key still open the HTTP API (a browser never shows a socket's status)? */
	private async checkAuth(profile: Profile): Promise<AuthCheck> {
		const connection = await this.ctx.connection(profile.id);
		if (!connection.ok) return { verdict: 'unreachable' };
		const res = await connection.value.fetch({
			url: `${profile.workflowUrl}/api/object_info`,
			credential: credentialFor(connection.value.key, 'x-api-key'),
			timeoutMs: 10_000
		});
		if (!res.ok) return res.error.kind === 'cors' ? { verdict: 'origin-refused', message: res.error.message } : { verdict: 'unreachable' };
		if (res.value.status === 401 || res.value.status === 403)
			return { verdict: 'refused', message: responseError(res.value, 'workflow').message };
		return readJson(res.value, 'workflow').ok ? { verdict: 'ok' } : { verdict: 'unreachable' };
	}
}
