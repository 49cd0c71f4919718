/**
 * Opens a WebSocket once and waits for the first message: the connection test's socket check.
 * A refused upgrade shows no HTTP status to script (close code 1006), so callers check the key
 * over HTTP first and explain a refusal with what they learned there.
 */
export type SocketProbeResult =
	{ ok: true; firstMessage: string; ms: number } | { ok: false; reason: 'refused' | 'closed' | 'timeout'; code?: number; ms: number };

export function probeSocket(url: string, timeoutMs = 5000): Promise<SocketProbeResult> {
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	return new Promise((resolve) => {
		let settled = false;
		let opened = false;
		let socket: WebSocket;
		const finish = (result: SocketProbeResult) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			try {
				socket.close(1000);
			} catch {
				/* already closed */
			}
			resolve(result);
		};
		const timer = setTimeout(() => finish({ ok: false, reason: 'timeout', ms: elapsed() }), timeoutMs);
		try {
			socket = new WebSocket(url);
		} catch {
			finish({ ok: false, reason: 'refused', ms: elapsed() });
			return;
		}
		socket.binaryType = 'arraybuffer';
		socket.onopen = () => {
			opened = true;
		};
		socket.onmessage = (event) => {
			finish({ ok: true, firstMessage: typeof event.data === 'string' ? event.data : '(binary frame)', ms: elapsed() });
		};
		socket.onclose = (event) => finish({ ok: false, reason: opened ? 'closed' : 'refused', code: event.code, ms: elapsed() });
	});
}
