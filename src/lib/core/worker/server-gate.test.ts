import { describe, expect, it } from 'vitest';
import { appError } from '../protocol/errors';
import { createGuardedFetch } from './guarded-fetch';
import { ServerGate } from './server-gate';

const ORIGIN = 'http://127.0.0.1:8188';
const down = appError('network', `No answer from ${ORIGIN}: the server is down, the address is wrong, or the network is offline.`);

/** A server that is up or down, and every request sent to it. */
function server() {
	const state = { up: false, now: 0, sent: [] as string[] };
	const fetchImpl = async (url: string, init?: RequestInit) => {
		// As in browsers: a no-cors fetch that does not follow redirects fails at once and is sent nowhere.
		if (init?.mode === 'no-cors' && (init.redirect ?? 'follow') !== 'follow') throw new TypeError('Failed to fetch');
		state.sent.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}${init?.mode === 'no-cors' ? ' (probe)' : ''}`);
		if (!state.up) throw new TypeError('Failed to fetch');
		return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
	};
	const gate = new ServerGate(
		ORIGIN,
		fetchImpl,
		() => state.now,
		() => 0.5
	);
	const fetch = createGuardedFetch({ allowedOrigins: [ORIGIN], appOrigin: 'http://127.0.0.1:5173', fetchImpl, gate: () => gate });
	return { state, gate, fetch };
}

describe('the shared backoff of a server that does not answer', () => {
	it('sends nothing before the retry time; then one cheap probe stands for every read that waits', async () => {
		const { state, gate, fetch } = server();
		expect((await fetch({ url: `${ORIGIN}/api/queue`, credential: null })).ok).toBe(false);
		expect(gate.isDown()).toBe(true);
		state.sent.length = 0;
		const held = await fetch({ url: `${ORIGIN}/api/history/a`, credential: null });
		expect(held).toMatchObject({ ok: false, error: { kind: 'network', detail: expect.stringMatching(/next try is in about 2 s/) } });
		expect(state.sent).toEqual([]);

		state.now = gate.retryAt()!;
		const reads = await Promise.all([1, 2, 3].map((i) => fetch({ url: `${ORIGIN}/api/history/${i}`, credential: null })));
		expect(reads.every((r) => !r.ok)).toBe(true);
		expect(state.sent, 'one probe for three reads').toEqual(['GET / (probe)']);
		expect(gate.retryAt()! - state.now, 'the second wait is longer').toBe(3000);
	});

	it('opens when the probe finds the server up, tells who waits, and the reads go out again', async () => {
		const { state, gate, fetch } = server();
		await fetch({ url: `${ORIGIN}/api/queue`, credential: null });
		let told = 0;
		gate.onAnswer(() => told++);
		state.up = true;
		state.now = gate.retryAt()!;
		state.sent.length = 0;
		expect((await fetch({ url: `${ORIGIN}/api/queue`, credential: null })).ok).toBe(true);
		expect(state.sent).toEqual(['GET / (probe)', 'GET /api/queue']);
		expect(told).toBe(1);
		expect(gate.isDown()).toBe(false);
	});

	it('always sends what the user asked for (not a GET), and a page that wakes may read at once', async () => {
		const { state, gate, fetch } = server();
		await fetch({ url: `${ORIGIN}/api/queue`, credential: null });
		state.sent.length = 0;
		await fetch({ url: `${ORIGIN}/api/interrupt`, method: 'POST', credential: null });
		expect(state.sent, 'sent, and its failure not probed again').toEqual(['POST /api/interrupt']);
		gate.wake();
		state.sent.length = 0;
		await fetch({ url: `${ORIGIN}/api/queue`, credential: null });
		expect(state.sent).toEqual(['GET / (probe)']);
	});

	it('a CORS refusal is an answer: the server is up, nothing is held back', () => {
		const { gate } = server();
		gate.failed(down);
		gate.failed(appError('cors', 'refused'));
		expect(gate.isDown()).toBe(true);
		gate.answered();
		expect(gate.isDown()).toBe(false);
	});
});
