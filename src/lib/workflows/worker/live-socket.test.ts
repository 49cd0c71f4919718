import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SocketState } from '../../core/protocol/socket-state';
import { LiveSocket, type AuthCheck } from './live-socket';

/** A WebSocket that never opens: the browser's view of a refused upgrade (no status, just a close). */
class RefusedSocket {
	static made = 0;
	binaryType = 'blob';
	onopen: (() => void) | null = null;
	onmessage: (() => void) | null = null;
	onclose: (() => void) | null = null;
	constructor() {
		RefusedSocket.made++;
		queueMicrotask(() => this.onclose?.());
	}
	send(): void {}
	close(): void {}
}

function socketWith(check: AuthCheck): { states: SocketState[]; socket: LiveSocket } {
	const states: SocketState[] = [];
	const socket = new LiveSocket({
		url: 'ws://127.0.0.1:8188/ws',
		checkAuth: async () => check,
		onState: (state) => states.push(state),
		onText: () => {},
		onBinary: () => {},
		random: () => 0
	});
	return { states, socket };
}

describe('LiveSocket when the upgrade is refused', () => {
	beforeEach(() => {
		vi.useFakeTimers();
		RefusedSocket.made = 0;
		vi.stubGlobal('WebSocket', RefusedSocket);
	});
	afterEach(() => {
		vi.unstubAllGlobals();
		vi.useRealTimers();
	});

	it.each<[string, AuthCheck, SocketState['status'], boolean]>([
		['a refused key stops and asks for a new one', { verdict: 'refused', message: 'Key refused.' }, 'auth-failed', false],
		[
			"a server that refuses this app's origin says so, and keeps trying",
			{ verdict: 'origin-refused', message: 'CORS headers do not allow this app.' },
			'origin-refused',
			true
		],
		['a server that does not answer is waited for', { verdict: 'unreachable' }, 'waiting', true]
	])('%s', async (_name, check, status, retries) => {
		const { states, socket } = socketWith(check);
		socket.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(states.at(-1)?.status).toBe(status);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(RefusedSocket.made > 1).toBe(retries);
		socket.stop();
	});

	it.each<[string, AuthCheck, boolean]>([
		['a server that answers nothing', { verdict: 'unreachable' }, true],
		['a server that answers, though not on the socket', { verdict: 'ok' }, false]
	])('tells the page whether the run states it shows may be out of date: %s', async (_name, check, unanswered) => {
		const { states, socket } = socketWith(check);
		socket.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(states.at(-1)).toMatchObject({ status: 'waiting', unanswered });
		socket.stop();
	});

	it('carries the diagnosis to the page', async () => {
		const { states, socket } = socketWith({ verdict: 'origin-refused', message: 'Start ComfyUI with --enable-cors-header.' });
		socket.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(states.at(-1)).toMatchObject({ status: 'origin-refused', attempt: 1, message: 'Start ComfyUI with --enable-cors-header.' });
		socket.stop();
	});
});
