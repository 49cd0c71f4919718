/**
 * The provider hold (the router's counterpart of the workflow service's `holdNode`): while set, every
 * run, or the runs of one model, waits at the provider once dispatched — counted, its spend committed,
 * its queued request `IN_PROGRESS` — until a test releases it. So a test can act "mid-run" without
 * betting on how slow a run is: it holds, waits until the run is held, acts, then releases.
 *
 * A held run ends its wait when it is released, when the hold stops covering it (the setting cleared
 * or moved to another model), when its queued request is cancelled (a cancel ask reaches a run at the
 * provider, which then completes and is charged, as the spec's cancel says), or on reset, which ends it
 * without a result so nothing of it leaks into the next test.
 */

/** The setting: `model: null` holds every run, else only the runs of that model id. */
export interface HoldSetting {
	model: string | null;
}

/** How a held run's wait ended: it goes on to the provider's answer, or the emulator was reset. */
export type HoldEnd = 'released' | 'reset';

export interface HeldRunView {
	/** The run's request id (the queued request id, or the synchronous call's X-Service-Request-Id). */
	id: string;
	model: string;
	/** Real milliseconds since the run was held. */
	heldMs: number;
}

interface HeldRun {
	id: string;
	model: string;
	since: number;
	end: (how: HoldEnd) => void;
}

export class ProviderHold {
	/** In the order the runs were held, oldest first. */
	private readonly held = new Map<string, HeldRun>();

	constructor(private readonly setting: () => HoldSetting | null) {}

	covers(modelId: string): boolean {
		const s = this.setting();
		return s !== null && (s.model === null || s.model === modelId);
	}

	/** Waits while the hold covers this model; resolves at once when it does not. */
	wait(id: string, modelId: string): Promise<HoldEnd> {
		if (!this.covers(modelId)) return Promise.resolve('released');
		return new Promise((resolve) => {
			this.held.set(id, { id, model: modelId, since: Date.now(), end: resolve });
		});
	}

	get count(): number {
		return this.held.size;
	}

	runs(): HeldRunView[] {
		const now = Date.now();
		return [...this.held.values()].map((r) => ({ id: r.id, model: r.model, heldMs: now - r.since }));
	}

	/** Releases held runs, oldest first: those of `model` when given, at most `count`. Answers how many. */
	release({ model, count }: { model?: string; count?: number } = {}): number {
		let released = 0;
		for (const run of [...this.held.values()]) {
			if (count !== undefined && released >= count) break;
			if (model !== undefined && run.model !== model) continue;
			this.end(run, 'released');
			released++;
		}
		return released;
	}

	/** Releases one run by its id (a cancel reaching it); false when it is not held. */
	releaseRun(id: string): boolean {
		const run = this.held.get(id);
		if (!run) return false;
		this.end(run, 'released');
		return true;
	}

	/** After the setting changed: runs it no longer covers go on. */
	settingChanged(): void {
		for (const run of [...this.held.values()]) if (!this.covers(run.model)) this.end(run, 'released');
	}

	/** The emulator was reset: every held run ends without a result. */
	reset(): void {
		for (const run of [...this.held.values()]) this.end(run, 'reset');
	}

	private end(run: HeldRun, how: HoldEnd): void {
		this.held.delete(run.id);
		run.end(how);
	}
}
