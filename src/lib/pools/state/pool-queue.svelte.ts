/**
 * One pool's queue view, kept fresh while it is shown: read again every few seconds and soon after
 * a run moves; moving a run and saying a member is gone answer in words for the page.
 */
import { onWorkerEvent } from '$lib/core/state/worker-bridge.svelte';
import type { PoolQueueView } from '../protocol/pool';
import { goneWords } from '../rules/gone-words';
import { pools } from './pools.svelte';

const READ_EVERY_MS = 2000;

export class PoolQueueWatch {
	view = $state<PoolQueueView | null>(null);
	problem = $state<string | null>(null);
	/** What the last move or "gone" did, in words. */
	notice = $state('');
	busy = $state(false);

	private timer: ReturnType<typeof setTimeout> | undefined;
	private reading = false;

	constructor(private readonly poolId: string) {}

	/** Starts reading; the returned function stops it. */
	start(): () => void {
		void this.refresh();
		const off = onWorkerEvent((event) => {
			if ((event.type === 'run' && event.run.pool?.poolId === this.poolId) || event.type === 'pools') this.soon();
		});
		return () => {
			off();
			clearTimeout(this.timer);
			this.timer = undefined;
			this.stopped = true;
		};
	}

	private stopped = false;

	private soon(delay = 250): void {
		if (this.stopped) return;
		clearTimeout(this.timer);
		this.timer = setTimeout(() => void this.refresh(), delay);
	}

	async refresh(): Promise<void> {
		if (this.reading) return this.soon();
		this.reading = true;
		try {
			const read = await pools.queue(this.poolId);
			if (read.ok) {
				this.view = read.value;
				this.problem = null;
			} else this.problem = read.error.message;
		} finally {
			this.reading = false;
			this.soon(READ_EVERY_MS);
		}
	}

	async move(runId: string, to: string, toName: string): Promise<void> {
		await this.act(async () => {
			const moved = await pools.moveRun(runId, to);
			return moved.ok ? `Moved to ${toName}: cancelled where it waited, then sent there.` : `Not moved: ${moved.error.message}`;
		});
	}

	async switchOn(profileId: string, name: string): Promise<void> {
		await this.act(async () => {
			const on = await pools.switchMemberOn(this.poolId, profileId);
			return on.ok ? `${name} is on again: the pool sends it runs.` : on.error.message;
		});
	}

	async gone(profileId: string, name: string): Promise<void> {
		await this.act(async () => {
			const report = await pools.memberGone(this.poolId, profileId);
			return report.ok ? goneWords(name, report.value) : report.error.message;
		});
	}

	/** One action on the pool: busy meanwhile, its words as the notice, the lanes read again after. */
	private async act(action: () => Promise<string>): Promise<void> {
		this.busy = true;
		try {
			this.notice = await action();
		} finally {
			this.busy = false;
			await this.refresh();
		}
	}
}
