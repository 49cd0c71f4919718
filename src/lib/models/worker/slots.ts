/**
 * A cap on synchronous calls held open. Browsers allow about six connections per origin over
 * HTTP/1.1; holding them all for minutes-long runs would starve polling and the catalog, so at most
 * `size` are held and the rest wait their turn here, in order.
 */
export class Slots {
	private used = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(readonly size: number) {}

	get busy(): number {
		return this.used;
	}

	get queued(): number {
		return this.waiting.length;
	}

	/** Resolves with a release function once a slot is free. */
	async acquire(): Promise<() => void> {
		if (this.used < this.size) this.used++;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.waiting.shift();
			if (next) next();
			else this.used--;
		};
	}
}

export const SYNC_HELD_OPEN_CAP = 4;
