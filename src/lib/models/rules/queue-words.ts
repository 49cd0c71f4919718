/**
 * A queued request's status as a person says it. The router's only named status is `COMPLETED`; the
 * others are the provider's (fal says `IN_QUEUE`, `IN_PROGRESS`), so an unknown one is read from its
 * own words ("PENDING_REVIEW" is "pending review") rather than shown in capitals.
 */
const KNOWN: Record<string, string> = {
	IN_QUEUE: 'waiting in the queue',
	QUEUED: 'waiting in the queue',
	IN_PROGRESS: 'running',
	RUNNING: 'running',
	COMPLETED: 'finished'
};

export function queueStatusWords(status: string | undefined): string {
	if (!status) return 'no answer from the queue yet';
	const known = KNOWN[status.toUpperCase()];
	if (known) return known;
	return status.replace(/[_-]+/g, ' ').toLowerCase().slice(0, 40);
}
