/** Recognising "the disk is full" among IndexedDB errors, so it becomes a message, not a failure. */

export function isQuotaError(error: unknown): boolean {
	return error instanceof DOMException && (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED');
}

/** A required record that could not be written even after cached outputs were removed to make room. */
export class StorageFullError extends Error {
	constructor(readonly key: string) {
		super(
			'Storage on this device is full, and removing saved outputs did not make enough room to keep this run, so it was not sent. Free space in Settings → Storage (or remove old runs), then try again.'
		);
		this.name = 'StorageFullError';
	}
}

export function isStorageFull(error: unknown): error is StorageFullError {
	return error instanceof StorageFullError;
}

export const QUOTA_MESSAGE =
	'Storage on this device is full, so new outputs are shown but not kept for offline use. Free space in Settings → Storage.';
