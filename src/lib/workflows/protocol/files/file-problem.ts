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
