/** What the page is told about the live connection of the active profile. */

export type SocketState =
	| { status: 'idle' }
	| { status: 'connecting'; attempt: number }
	| { status: 'open'; queueRemaining: number | undefined }
	| { status: 'waiting'; attempt: number; retryAt: number; reason: string }
	/** The server answers, but not to this app's origin (CORS): retried, as a restart with the flag fixes it. */
	| { status: 'origin-refused'; attempt: number; retryAt: number; message: string }
	| { status: 'auth-failed'; message: string }
	| { status: 'offline' };
