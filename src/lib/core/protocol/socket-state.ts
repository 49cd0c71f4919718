/** What the page is told about the live connection of the active profile. */

export type SocketState =
	| { status: 'idle' }
	| { status: 'connecting'; attempt: number }
	| { status: 'open'; queueRemaining: number | undefined }
	/** `unanswered`: the server answers nothing at all (not only the socket dropped): what it runs is not known meanwhile. */
	| { status: 'waiting'; attempt: number; retryAt: number; reason: string; unanswered: boolean }
	/** The server answers, but not to this app's origin (CORS): retried, as a restart with the flag fixes it. */
	| { status: 'origin-refused'; attempt: number; retryAt: number; message: string }
	| { status: 'auth-failed'; message: string }
	/** The server answers, but says the server behind it does not (a self-hosted proxy's `upstream_unreachable`). */
	| { status: 'upstream-down'; message: string }
	| { status: 'offline' };

/** What a request told of a link whose server fronts another (a self-hosted proxy and its ComfyUI). */
export type LinkHealth = { kind: 'ok' } | { kind: 'upstream-down'; message: string };
