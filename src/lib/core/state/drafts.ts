/**
 * Forms keep their drafts as they are edited, so a reload (an app update, a crash, a phone that
 * evicted the tab) loses nothing. Each saver waits for a pause in typing; `flushDrafts` writes every
 * pending draft at once, and the update flow calls it before reloading.
 */
import { pendingDrafts as pending } from './draft-flush';

export { flushDrafts } from './draft-flush';

export interface DraftSaver {
	schedule(): void;
	flush(): Promise<void>;
}

export function draftSaver(save: () => Promise<unknown>, delayMs = 600): DraftSaver {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const run = async () => {
		clearTimeout(timer);
		timer = undefined;
		pending.delete(run);
		await save();
	};
	return {
		schedule() {
			clearTimeout(timer);
			pending.add(run);
			timer = setTimeout(() => void run(), delayMs);
		},
		flush: () => (pending.has(run) ? run() : Promise.resolve())
	};
}
