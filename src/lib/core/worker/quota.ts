/** Recognising "the disk is full" among IndexedDB errors, so it becomes a message, not a failure. */

export function isQuotaError(error: unknown): boolean {
	return error instanceof DOMException && (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED');
}

export const QUOTA_MESSAGE =
	'Storage on this device is full, so new outputs are shown but not kept for offline use. Free space in Settings → Storage.';
