import { describe, expect, it } from 'vitest';
import { appError } from '../protocol/errors';
import { badgeView, type RouterHealth } from './connection-badge';
import { routerHealth } from './router-health';
import type { SocketState } from '../protocol/socket-state';

const open: SocketState = { status: 'open', queueRemaining: 0 };
const unavailable = appError('unavailable', 'Service unavailable', { status: 503 });
const walkFailing = { walk: { kind: 'retrying' as const, pages: 0, attempt: 2, retryInMs: 4000, error: unavailable } };

describe('the router’s health, from its catalog walk', () => {
	it.each([
		['never walked', null, null, { kind: 'unknown' }],
		['walking', { walk: { kind: 'walking' as const, pages: 1 } }, null, { kind: 'unknown' }],
		['done', { walk: { kind: 'done' as const, pages: 3, at: 1, ms: 10 } }, null, { kind: 'ok' }],
		['retrying after a 503', walkFailing, null, { kind: 'failing', words: 'Models unavailable' }],
		[
			'failed with a refused key',
			{ walk: { kind: 'failed' as const, pages: 0, error: appError('unauthorized', 'Key refused', { status: 401 }) } },
			null,
			{ kind: 'failing', words: 'Models: key refused' }
		],
		['asked and not answered', null, appError('network', 'No answer'), { kind: 'failing', words: 'Models not answering' }],
		['a 500', null, appError('server', 'Boom', { status: 500 }), { kind: 'failing', words: 'Models failing' }]
	])('%s', (_, view, error, expected) => {
		expect(routerHealth(view, error)).toEqual(expected);
	});
});

describe('the badge in words', () => {
	const failing: RouterHealth = { kind: 'failing', words: 'Models unavailable' };
	it.each<[string, SocketState, RouterHealth, { tone: string; text: string }]>([
		['all well', open, { kind: 'ok' }, { tone: 'ok', text: 'Live · 0 queued' }],
		['router not asked yet', open, { kind: 'unknown' }, { tone: 'ok', text: 'Live · 0 queued' }],
		['router failing, socket live', open, failing, { tone: 'warn', text: 'Workflows live · 0 queued · Models unavailable' }],
		['router failing, socket offline', { status: 'offline' }, failing, { tone: 'bad', text: 'Workflows offline · Models unavailable' }],
		['router failing, no workflow server', { status: 'idle' }, failing, { tone: 'warn', text: 'Models unavailable' }],
		[
			"a workflow server that refuses this app's origin",
			{ status: 'origin-refused', attempt: 2, retryAt: 0, message: 'CORS' },
			{ kind: 'ok' },
			{ tone: 'bad', text: 'Refuses this app' }
		],
		[
			'a proxy whose ComfyUI does not answer (503 upstream_unreachable; its /health still says healthy)',
			{ status: 'upstream-down', message: 'Could not reach ComfyUI.' },
			{ kind: 'ok' },
			{ tone: 'bad', text: 'Server behind it unreachable' }
		]
	])('%s', (_, socket, router, expected) => {
		expect(badgeView('Demo', socket, router)).toEqual(expected);
	});

	it('never says "Live" alone while the router fails', () => {
		expect(badgeView('Demo', open, failing).text).not.toMatch(/^Live/);
	});

	it('says offline while the browser is offline, though the socket still looks open', () => {
		expect(badgeView('Demo', open, { kind: 'ok' }, false)).toEqual({ tone: 'bad', text: 'Offline' });
	});

	it('no profile', () => {
		expect(badgeView(null, open, { kind: 'ok' })).toEqual({ tone: 'idle', text: 'No profile' });
	});
});
