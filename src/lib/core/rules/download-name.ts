/**
 * The one rule for the file name of every download (workflow outputs on v1 and v2, model results,
 * exports): names come from servers and workflow files, so only letters, digits, `_`, `.` and `-`
 * survive, runs of anything else become one `_`, no leading dot (no hidden file, no `..`), and at most
 * `MAX_NAME` characters with the extension kept.
 */
const MAX_NAME = 120;
const MAX_EXTENSION = 12;

export function downloadName(raw: string | null | undefined, fallback = 'result'): string {
	const cleaned = (raw ?? '')
		.replace(/[^a-z0-9_.-]+/gi, '_')
		.replace(/^[._]+/, '')
		.replace(/\.{2,}/g, '.');
	if (cleaned === '' || /^[_.-]*$/.test(cleaned)) return fallback;
	if (cleaned.length <= MAX_NAME) return cleaned;
	const dot = cleaned.lastIndexOf('.');
	const extension = dot > 0 && cleaned.length - dot <= MAX_EXTENSION ? cleaned.slice(dot) : '';
	return cleaned.slice(0, MAX_NAME - extension.length) + extension;
}
