/**
 * Applies arriving items at most once per animation frame: the first at once, the ones that arrive
 * later in the same frame together at the next. In a hidden tab (no frames) they wait until `drop`
 * or until the tab is shown again.
 */
export interface PerFrame<T> {
	push(item: T): void;
	/** Forgets what waits (a newer whole state made it moot). */
	drop(): void;
}

export function perFrame<T>(apply: (items: T[]) => void, nextFrame: (tick: () => void) => void = requestAnimationFrame): PerFrame<T> {
	let waiting: T[] = [];
	let frameOpen = false;
	const tick = (): void => {
		frameOpen = false;
		if (waiting.length === 0) return;
		const items = waiting;
		waiting = [];
		frameOpen = true;
		nextFrame(tick);
		apply(items);
	};
	return {
		push(item) {
			waiting.push(item);
			if (!frameOpen) tick();
		},
		drop() {
			waiting = [];
		}
	};
}
