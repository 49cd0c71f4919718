/**
 * The timing control's node hold: a matching node, once started, stays busy for `ms`, or with
 * `ms: null` until it is released (the release route, a stop of its job, a reset or the emulator's
 * close). Tests hold a run where they need it instead of betting on a slow one.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Nodes matching by type or id (one of the two). */
export type NodeMatch = { classType: string } | { nodeId: string };

/**
 * Matching nodes run `ms` longer once started; `ms: null` holds them until released. With `step`, a
 * node is held once it has reported that progress step instead (a sampler mid-way, previews shown).
 */
export type NodeHold = NodeMatch & { ms: number | null; step?: number };

/** A node held now until released, as the control state lists it. */
export interface HeldNode {
	promptId: string;
	nodeId: string;
	classType: string;
	/** The progress step it is held after, for a hold with `step`. */
	step?: number;
}

/** Which held nodes a release lets go: all, or those of one job and/or one node id. */
export interface ReleaseFilter {
	promptId?: string;
	nodeId?: string;
}

export const matchesHold = (hold: NodeMatch, nodeId: string, classType: string): boolean =>
	'nodeId' in hold ? hold.nodeId === nodeId : hold.classType === classType;

export class NodeHolds {
	setting: NodeHold | null = null;
	private readonly held = new Map<HeldNode, () => void>();

	constructor(private readonly halt: AbortSignal) {
		halt.addEventListener('abort', () => this.release({}), { once: true });
	}

	/**
	 * Resolves when a node that has just started (`step` undefined) or reported a progress step may
	 * go on: at once when the hold does not match; after `ms` for a timed hold (a stop does not cut it
	 * short, as a busy node in ComfyUI is not); for a hold until released, when it is released.
	 */
	async pass(promptId: string, nodeId: string, classType: string, step?: number): Promise<void> {
		// Read as each node starts or steps, so a hold set while a job runs applies to what comes next.
		const hold = this.setting;
		if (!hold || !matchesHold(hold, nodeId, classType) || hold.step !== step || this.halt.aborted) return;
		if (hold.ms !== null) {
			if (hold.ms > 0) await sleep(hold.ms, undefined, { signal: this.halt }).catch(() => undefined);
			return;
		}
		const node: HeldNode = step === undefined ? { promptId, nodeId, classType } : { promptId, nodeId, classType, step };
		await new Promise<void>((resolve) => this.held.set(node, resolve));
	}

	/** Lets matching held nodes go on; answers the ones released. */
	release(filter: ReleaseFilter): HeldNode[] {
		const released: HeldNode[] = [];
		for (const [node, resolve] of this.held) {
			if (filter.promptId !== undefined && node.promptId !== filter.promptId) continue;
			if (filter.nodeId !== undefined && node.nodeId !== filter.nodeId) continue;
			this.held.delete(node);
			resolve();
			released.push(node);
		}
		return released;
	}

	/** The nodes held now, oldest first. */
	list(): HeldNode[] {
		return [...this.held.keys()].map((node) => ({ ...node }));
	}
}
