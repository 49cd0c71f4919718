/**
 * The live WebSocket of one profile: sends `feature_flags` first, hands every frame on, and
 * reconnects with backoff and jitter. A socket refused before it opens shows no status, so the
 * key is checked over HTTP; on 401/403 it stops and asks for a new key instead of looping, and a
 * server that refuses this app's origin is said to, while retries go on (a restart with the flag fixes it).
 * While the server does not answer at all, the socket keeps to the server's shared backoff (`gate`): it
 * tries no handshake of its own until the gate's probe finds the server up, and connects as soon as it is.
 */
import { backoffDelay, SOCKET_BACKOFF } from '../../core/rules/backoff';
import type { SocketState } from '../../core/protocol/socket-state';
import { CLIENT_FEATURE_FLAGS } from '../protocol/workflow-events';
import type { ServerGate } from '../../core/worker/server-gate';

/** What the socket needs of its server's shared backoff. */
export type SocketGate = Pick<ServerGate, 'isDown' | 'admit' | 'retryAt' | 'onAnswer'>;

export type AuthCheck =
	{ verdict: 'ok' } | { verdict: 'refused'; message: string } | { verdict: 'origin-refused'; message: string } | { verdict: 'unreachable' };

export interface LiveSocketOptions {
	url: string;
	checkAuth: () => Promise<AuthCheck>;
	onState: (state: SocketState) => void;
	onText: (text: string) => void;
	onBinary: (bytes: ArrayBuffer) => void;
	random?: () => number;
	/** The server's shared backoff while it does not answer (absent: the socket's own backoff only). */
	gate?: SocketGate;
}

export class LiveSocket {
	private socket: WebSocket | undefined;
	private attempt = 0;
	private retryTimer: ReturnType<typeof setTimeout> | undefined;
	private stopped = false;
	private state: SocketState = { status: 'idle' };
	private stopListening: (() => void) | undefined;
	/** Counts connects, so a gate admission that comes back late belongs to the newest only. */
	private generation = 0;

	constructor(private readonly options: LiveSocketOptions) {}

	start(): void {
		this.stopped = false;
		// The server answers again (a read found it up): connect now rather than at the next retry.
		this.stopListening ??= this.options.gate?.onAnswer(() => this.wake());
		this.connect();
	}

	/** Reconnect now if waiting (page became visible, network came back). */
	wake(): void {
		if (this.stopped) return;
		const { status } = this.state;
		if (status === 'waiting' || status === 'origin-refused' || status === 'offline' || status === 'idle') {
			this.attempt = 0;
			this.connect();
		}
	}

	stop(): void {
		this.stopped = true;
		this.stopListening?.();
		this.stopListening = undefined;
		clearTimeout(this.retryTimer);
		const socket = this.socket;
		this.socket = undefined;
		if (socket) {
			socket.onclose = null;
			socket.close(1000);
		}
		this.setState({ status: 'idle' });
	}

	private setState(state: SocketState): void {
		this.state = state;
		this.options.onState(state);
	}

	private connect(): void {
		clearTimeout(this.retryTimer);
		// One socket at a time: close the old one before opening a new one (GUIDE §2).
		if (this.socket) {
			this.socket.onclose = null;
			this.socket.close(1000);
		}
		const generation = ++this.generation;
		const gate = this.options.gate;
		if (!gate?.isDown()) return this.handshake();
		// The server does not answer: no handshake until the shared probe finds it up.
		void gate.admit().then((admitted) => {
			if (this.stopped || generation !== this.generation) return;
			if (admitted.ok) return this.handshake();
			const retryAt = gate.retryAt() ?? Date.now() + SOCKET_BACKOFF.maxMs;
			this.setState({ status: 'waiting', attempt: this.attempt, retryAt, reason: 'The server does not answer.', unanswered: true });
			this.retryTimer = setTimeout(() => this.connect(), Math.max(0, retryAt - Date.now()));
		});
	}

	private handshake(): void {
		this.setState({ status: 'connecting', attempt: this.attempt });
		let opened = false;
		let socket: WebSocket;
		try {
			socket = new WebSocket(this.options.url);
		} catch {
			void this.closed(false);
			return;
		}
		this.socket = socket;
		socket.binaryType = 'arraybuffer';
		socket.onopen = () => {
			opened = true;
			this.attempt = 0;
			socket.send(JSON.stringify(CLIENT_FEATURE_FLAGS));
			this.setState({ status: 'open', queueRemaining: undefined });
		};
		socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
			if (typeof event.data === 'string') this.options.onText(event.data);
			else this.options.onBinary(event.data);
		};
		socket.onclose = () => {
			if (this.socket === socket) this.socket = undefined;
			void this.closed(opened);
		};
	}

	/** Updates the queue count shown while open. */
	noteQueue(queueRemaining: number | undefined): void {
		if (this.state.status === 'open') this.setState({ status: 'open', queueRemaining });
	}

	private async closed(wasOpen: boolean): Promise<void> {
		if (this.stopped) return;
		const auth = wasOpen ? undefined : await this.options.checkAuth();
		if (this.stopped) return;
		if (auth?.verdict === 'refused') {
			this.stopped = true;
			this.setState({ status: 'auth-failed', message: auth.message });
			return;
		}
		// Never sooner than the server's shared backoff allows, when it does not answer.
		const gateWait = Math.max(0, (this.options.gate?.retryAt() ?? 0) - Date.now());
		const delay = Math.max(gateWait, backoffDelay(this.attempt, SOCKET_BACKOFF, (this.options.random ?? Math.random)()));
		this.attempt++;
		const retryAt = Date.now() + delay;
		if (auth?.verdict === 'origin-refused') {
			this.setState({ status: 'origin-refused', attempt: this.attempt, retryAt, message: auth.message });
		} else {
			const reason = wasOpen ? 'The connection dropped.' : 'The service did not accept the connection.';
			const unanswered = auth?.verdict === 'unreachable' || this.options.gate?.isDown() === true;
			this.setState({ status: 'waiting', attempt: this.attempt, retryAt, reason, unanswered });
		}
		this.retryTimer = setTimeout(() => this.connect(), delay);
	}
}
