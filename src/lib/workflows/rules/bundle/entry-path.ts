/**
 * Whether a zip entry's name stays inside the bundle: relative, `/`-separated, no `..` or `.`
 * segment, no drive letter, backslash or control character. Anything else is refused, never mended.
 */
export function entryPathProblem(name: string, maxChars: number): string | null {
	if (name.length === 0) return 'an entry has no name';
	if (name.length > maxChars) return `an entry's name is longer than ${maxChars} characters`;
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f\\:]/.test(name)) return `the entry "${shown(name)}" has a backslash, colon or control character in its name`;
	if (name.startsWith('/')) return `the entry "${shown(name)}" is an absolute path`;
	const segments = name.replace(/\/$/, '').split('/');
	if (segments.some((s) => s === '' || s === '.' || s === '..')) return `the entry "${shown(name)}" leaves the bundle or has an empty part`;
	return null;
}

/** A name as it may be shown in a one-line message: short, printable. */
export function shown(name: string): string {
	// eslint-disable-next-line no-control-regex
	const printable = name.replace(/[\u0000-\u001f\u007f]/g, '?');
	return printable.length > 60 ? `${printable.slice(0, 57)}…` : printable;
}
