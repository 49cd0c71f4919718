/** What the page is told about the live connection of the active profile. */

export type SocketState =
	| { status: 'idle' }
	| { status: 'connecting'; attempt: number }
	| { status: 'open'; queueRemaining: number | undefined }
	| { status: 'waiting'; attempt: number; retryAt: number; reason: string }
	| { status: 'auth-failed'; message: string }
	| { status: 'offline' };
