/**
 * Holding a run where a test needs it (the workflow service's `holdNode` until released) instead
 * of making it slow enough to be caught: hold, wait until the run is really held, act, release.
 */
import { expect } from '@playwright/test';
import type { Emulator } from '../../emulator/index';
import type { HeldNode, NodeMatch } from '../../emulator/workflow/holds';
import { workflowControl } from './fixtures';

/** Every node matching `match` stays busy once it starts (or, with `step`, once it reports that step) until released. */
export async function holdNode(emulator: Emulator, match: NodeMatch & { step?: number }): Promise<void> {
	await workflowControl(emulator, 'timing', { holdNode: match });
}

async function heldNow(emulator: Emulator): Promise<HeldNode[]> {
	const res = await fetch(`${emulator.urls.workflow}/__emulator/workflow/state`);
	return ((await res.json()) as { held: HeldNode[] }).held;
}

/** Waits until `count` nodes are held: the runs have really reached the hold. */
export async function untilHeld(emulator: Emulator, count = 1): Promise<HeldNode[]> {
	await expect.poll(async () => (await heldNow(emulator)).length, { message: `${count} held node(s)` }).toBe(count);
	return heldNow(emulator);
}

/** Lets the held nodes go (those of one job with `promptId`) and, unless `keepHolding`, holds nothing more. */
export async function release(emulator: Emulator, options: { promptId?: string; keepHolding?: boolean } = {}): Promise<void> {
	if (!options.keepHolding) await workflowControl(emulator, 'timing', { holdNode: null });
	await workflowControl(emulator, 'release', options.promptId ? { promptId: options.promptId } : {});
}

/**
 * A sampler held (as it started, or after step `step - 1`) takes one step, its progress and preview
 * sent, and is held again after it: for a page that shows steps only from what it hears while open.
 */
export async function oneStepWhileWatched(emulator: Emulator, step = 1): Promise<void> {
	await untilHeld(emulator);
	await holdNode(emulator, { classType: 'KSampler', step });
	await release(emulator, { keepHolding: true });
}
