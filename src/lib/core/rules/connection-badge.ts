/**
 * The connection badge in words: one part per service of the active profile, so a failing model
 * router is never summed up as "Live" because the workflow server's socket is open.
 */
import type { SocketState } from '../protocol/socket-state';

export type BadgeTone = 'ok' | 'warn' | 'bad' | 'idle';

export type { RouterHealth } from './router-health';
import type { RouterHealth } from './router-health';

function socketWords(socket: SocketState): { tone: BadgeTone; text: string } {
	switch (socket.status) {
		case 'open':
			return { tone: 'ok', text: socket.queueRemaining !== undefined ? `Live · ${socket.queueRemaining} queued` : 'Live' };
		case 'connecting':
			return { tone: 'warn', text: 'Connecting…' };
		case 'waiting':
			return { tone: 'warn', text: 'Reconnecting…' };
		case 'origin-refused':
			return { tone: 'bad', text: 'Refuses this app' };
		case 'auth-failed':
			return { tone: 'bad', text: 'Key refused' };
		case 'upstream-down':
			return { tone: 'bad', text: 'Server behind it unreachable' };
		case 'offline':
			return { tone: 'bad', text: 'Offline' };
		case 'idle':
			return { tone: 'idle', text: 'Not connected' };
	}
}

const WORSE: Record<BadgeTone, number> = { idle: 0, ok: 1, warn: 2, bad: 3 };

/**
 * `online` is the browser's own word: offline, a socket that still looks open carries nothing (the
 * browser keeps it until it times out), so the badge says offline, never "Live".
 */
export function badgeView(
	profileName: string | null,
	socket: SocketState,
	router: RouterHealth,
	online = true
): { tone: BadgeTone; text: string } {
	if (!profileName) return { tone: 'idle', text: 'No profile' };
	if (!online) return { tone: 'bad', text: 'Offline' };
	const workflows = socketWords(socket);
	if (router.kind !== 'failing') return workflows;
	// Each service says its own state: "Live" names the workflow server only.
	const text =
		socket.status === 'idle'
			? router.words
			: `Workflows ${workflows.text.charAt(0).toLowerCase()}${workflows.text.slice(1)} · ${router.words}`;
	return { tone: WORSE[workflows.tone] > WORSE.warn ? workflows.tone : 'warn', text };
}
