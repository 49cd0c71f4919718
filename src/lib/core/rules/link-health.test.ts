import { describe, expect, it } from 'vitest';
import type { LinkHealth, SocketState } from '../protocol/socket-state';
import { socketAfterHealth } from './link-health';

const down = (message: string): LinkHealth => ({ kind: 'upstream-down', message });
const open: SocketState = { status: 'open', queueRemaining: 2 };
const upstreamDown = (message: string): SocketState => ({ status: 'upstream-down', message });

describe('a socketless link told how its last answer went', () => {
	it.each<[string, SocketState, LinkHealth, SocketState | undefined]>([
		['live, then the server behind it is unreachable', open, down('Could not reach ComfyUI.'), upstreamDown('Could not reach ComfyUI.')],
		['still unreachable, same words: no change', upstreamDown('x'), down('x'), undefined],
		['still unreachable, new words', upstreamDown('x'), down('y'), upstreamDown('y')],
		['unreachable, then it answers', upstreamDown('x'), { kind: 'ok' }, { status: 'open', queueRemaining: undefined }],
		['live and answering: no change', open, { kind: 'ok' }, undefined],
		[
			'reconnecting is the socket’s to say, not an answer’s',
			{ status: 'waiting', attempt: 1, retryAt: 500, reason: 'closed', unanswered: false },
			down('x'),
			undefined
		]
	])('%s', (_, state, health, next) => {
		expect(socketAfterHealth(state, health)).toEqual(next);
	});
});
