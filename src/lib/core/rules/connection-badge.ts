/**
 * The connection badge in words: one part per service of the active profile, so a failing model
 * router is never summed up as "Live" because the workflow server's socket is open.
 */
import type { AppError } from '../protocol/errors';
import type { CatalogView } from '../../models/rules/model-catalog';
import type { SocketState } from '../protocol/socket-state';

export type BadgeTone = 'ok' | 'warn' | 'bad' | 'idle';

/** What is known of the model router: nothing yet, answering, or refusing (in words). */
export type RouterHealth = { kind: 'unknown' } | { kind: 'ok' } | { kind: 'failing'; words: string };

/** The router's health as its catalog walk last saw it (the walk is the app's steady contact with it). */
export function routerHealth(view: Pick<CatalogView, 'walk'> | null, error: AppError | null): RouterHealth {
	const walkError = view && (view.walk.kind === 'retrying' || view.walk.kind === 'failed') ? view.walk.error : null;
	const failure = walkError ?? error;
	if (failure) return { kind: 'failing', words: failureWords(failure) };
	if (view?.walk.kind === 'done') return { kind: 'ok' };
	return { kind: 'unknown' };
}

function failureWords(error: AppError): string {
	if (error.kind === 'unavailable' || error.status === 503 || error.errorType === 'service_unavailable') return 'Models unavailable';
	if (error.kind === 'unauthorized' || error.kind === 'forbidden') return 'Models: key refused';
	if (error.kind === 'network' || error.kind === 'timeout') return 'Models not answering';
	return 'Models failing';
}

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

export function badgeView(profileName: string | null, socket: SocketState, router: RouterHealth): { tone: BadgeTone; text: string } {
	if (!profileName) return { tone: 'idle', text: 'No profile' };
	const workflows = socketWords(socket);
	if (router.kind !== 'failing') return workflows;
	// Each service says its own state: "Live" names the workflow server only.
	const text =
		socket.status === 'idle'
			? router.words
			: `Workflows ${workflows.text.charAt(0).toLowerCase()}${workflows.text.slice(1)} · ${router.words}`;
	return { tone: WORSE[workflows.tone] > WORSE.warn ? workflows.tone : 'warn', text };
}
