import type { LinkHealth, SocketState } from '../protocol/socket-state';

/**
 * A link with no socket of its own (v2) is as healthy as its last answer says: a live link whose
 * server behind it stops answering turns "upstream down", and back to live when it answers again.
 * Undefined: the state stays as it is.
 */
export function socketAfterHealth(state: SocketState, health: LinkHealth): SocketState | undefined {
	if (health.kind === 'upstream-down') {
		if (state.status === 'open') return { status: 'upstream-down', message: health.message };
		if (state.status === 'upstream-down' && state.message !== health.message) return { status: 'upstream-down', message: health.message };
		return undefined;
	}
	return state.status === 'upstream-down' ? { status: 'open', queueRemaining: undefined } : undefined;
}
