/**
 * Long work the page may stop, by id: comlink cannot pass an AbortSignal, so the page names an
 * operation when it starts one and calls `cancelOperation(id)` to stop it (as Squoosh does).
 * A cancel that arrives before its operation started (or after it ended) is remembered briefly,
 * so the order of the two messages does not matter.
 */
const REMEMBER_EARLY_CANCELS = 100;

export class Operations {
	private readonly running = new Map<string, AbortController>();
	private readonly cancelledEarly: string[] = [];

	/** A signal for the operation `id` (none without an id), and `end` to call when it is over. */
	begin(id: string | undefined): { signal: AbortSignal | undefined; end(): void } {
		if (id === undefined) return { signal: undefined, end: () => {} };
		const controller = new AbortController();
		if (this.cancelledEarly.includes(id)) controller.abort();
		else this.running.set(id, controller);
		return { signal: controller.signal, end: () => this.running.delete(id) };
	}

	cancel(id: string): void {
		const controller = this.running.get(id);
		if (controller) {
			this.running.delete(id);
			controller.abort();
			return;
		}
		this.cancelledEarly.push(id);
		if (this.cancelledEarly.length > REMEMBER_EARLY_CANCELS) this.cancelledEarly.shift();
	}
}
