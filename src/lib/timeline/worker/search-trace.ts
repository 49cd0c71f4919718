/**
 * Where a search's time goes, for the search bench to take the first search after a reload apart
 * (decision 0061): the worker keeps its last few hundred spans on `globalThis.__searchTrace`, read
 * by the bench through Playwright's worker handle. A span costs two `performance.now()` calls.
 */
export interface Span {
	name: string;
	/** ms since the worker started. */
	start: number;
	ms: number;
}

const KEPT = 2000;
const spans: Span[] = [];
(globalThis as { __searchTrace?: Span[] }).__searchTrace = spans;

export function span(name: string, start: number): void {
	spans.push({ name, start: Math.round(start), ms: Math.round(performance.now() - start) });
	if (spans.length > KEPT) spans.splice(0, spans.length - KEPT);
}

/** `work`, recorded as one span named `name`. */
export async function traced<T>(name: string, work: () => Promise<T>): Promise<T> {
	const start = performance.now();
	try {
		return await work();
	} finally {
		span(name, start);
	}
}
