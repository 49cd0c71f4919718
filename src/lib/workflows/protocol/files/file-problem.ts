/** The kinds of failure a file read can end in, raised inside the readers and turned into a typed result at the top. */
export type FileProblemKind = 'truncated' | 'corrupt' | 'too-large' | 'no-workflow' | 'unsupported' | 'aborted';

export class FileProblem extends Error {
	constructor(
		readonly kind: FileProblemKind,
		/** What is wrong, in a person's words, without the file name (the top level adds it). */
		readonly detail: string
	) {
		super(detail);
		this.name = 'FileProblem';
	}
}

const MAX_QUOTE = 16;

/**
 * Bytes from a file (a chunk type, a text keyword, a box name) as a message may quote them: at most a
 * short excerpt, printable ASCII only (anything else, control and direction marks included, shows as `?`).
 */
export function quoted(raw: string): string {
	const cut = raw.length > MAX_QUOTE ? `${raw.slice(0, MAX_QUOTE)}…` : raw;
	return `"${cut.replace(/[^\x20-\x7e…]/g, '?')}"`;
}
