/**
 * Delete with undo: the runs chosen are hidden at once, in this tab and (over a BroadcastChannel)
 * in the others, and deleted only when the undo window ends. Nothing is deleted before: a tab
 * closed inside the window keeps the runs, and the other tabs show them again once the window
 * (plus a grace) has passed without word that they are gone.
 */
import { SvelteSet } from 'svelte/reactivity';
import { DEFAULT_TIMINGS, type UndoWindow } from '../../core/protocol/app-timings';

const CHANNEL = 'runboard:pending-deletes';

type Message = { type: 'hide'; ids: string[]; until: number } | { type: 'unhide'; ids: string[] } | { type: 'gone'; ids: string[] };

export interface PendingBatch {
	id: number;
	ids: string[];
	until: number;
}

export class PendingDeletes {
	/** Ids hidden now: deletions waiting in this tab or in another. */
	readonly hidden = new SvelteSet<string>();
	/** This tab's deletions waiting for their window to end (the newest is offered for undo). */
	batches = $state.raw<PendingBatch[]>([]);
	private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
	private readonly fallbacks = new Map<string, ReturnType<typeof setTimeout>>();
	private seq = 0;
	/** The window's length, and how long past it another tab waits for "gone" before showing the runs again. */
	private window: UndoWindow = { ms: DEFAULT_TIMINGS.undoMs, graceMs: DEFAULT_TIMINGS.undoGraceMs };
	private channel: BroadcastChannel | null = null;
	/** Deletes for real, when a window ends (the worker's delete of each run). */
	private commit: (ids: string[]) => Promise<void> = async () => undefined;
	/** Told the ids another tab has deleted, so lists drop them. */
	private onGone: (ids: string[]) => void = () => undefined;

	constructor(private readonly now: () => number = () => Date.now()) {}

	/** Connects to the other tabs; `commit` deletes, `onGone` drops runs another tab deleted. */
	start(commit: (ids: string[]) => Promise<void>, onGone: (ids: string[]) => void): void {
		this.commit = commit;
		this.onGone = onGone;
		if (this.channel || typeof BroadcastChannel === 'undefined') return;
		this.channel = new BroadcastChannel(CHANNEL);
		this.channel.onmessage = (e: MessageEvent<Message>) => this.heard(e.data);
	}

	/** Sets the window from the worker's init answer (the runtime config's timings); deletes after this use it. */
	setWindow(window: UndoWindow): void {
		this.window = { ...window };
	}

	/** Hides the runs here and in the other tabs; deletes them when the window ends unless undone. */
	delete(ids: string[]): PendingBatch {
		const batch: PendingBatch = { id: ++this.seq, ids, until: this.now() + this.window.ms };
		for (const id of ids) this.hidden.add(id);
		this.batches = [...this.batches, batch];
		this.post({ type: 'hide', ids, until: batch.until });
		this.timers.set(
			batch.id,
			setTimeout(() => void this.finish(batch), this.window.ms)
		);
		return batch;
	}

	/** Brings the runs of a waiting deletion back, in every tab. */
	undo(batchId: number): void {
		const batch = this.batches.find((b) => b.id === batchId);
		if (!batch) return;
		clearTimeout(this.timers.get(batchId));
		this.timers.delete(batchId);
		this.batches = this.batches.filter((b) => b.id !== batchId);
		for (const id of batch.ids) this.hidden.delete(id);
		this.post({ type: 'unhide', ids: batch.ids });
	}

	private async finish(batch: PendingBatch): Promise<void> {
		this.timers.delete(batch.id);
		this.batches = this.batches.filter((b) => b.id !== batch.id);
		try {
			await this.commit(batch.ids);
		} finally {
			for (const id of batch.ids) this.hidden.delete(id);
			this.post({ type: 'gone', ids: batch.ids });
		}
	}

	private heard(message: Message): void {
		if (!message || !Array.isArray(message.ids)) return;
		const ids = message.ids.filter((id): id is string => typeof id === 'string');
		if (message.type === 'hide') {
			const wait = Math.max(0, message.until - this.now()) + this.window.graceMs;
			for (const id of ids) {
				this.hidden.add(id);
				clearTimeout(this.fallbacks.get(id));
				// The deleting tab closed inside the window: nothing was deleted, so show the run again.
				this.fallbacks.set(
					id,
					setTimeout(() => this.reveal([id]), wait)
				);
			}
		} else if (message.type === 'unhide') this.reveal(ids);
		else if (message.type === 'gone') {
			this.onGone(ids);
			this.reveal(ids);
		}
	}

	private reveal(ids: string[]): void {
		for (const id of ids) {
			clearTimeout(this.fallbacks.get(id));
			this.fallbacks.delete(id);
			this.hidden.delete(id);
		}
	}

	private post(message: Message): void {
		// A plain copy: a Svelte state proxy cannot be structured-cloned.
		this.channel?.postMessage({ ...message, ids: [...message.ids] });
	}
}

export const pendingDeletes = new PendingDeletes();
