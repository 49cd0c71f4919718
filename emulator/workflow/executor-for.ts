/**
 * The executor a node type runs with: its own (executors.ts, specific-executors.ts, pixel-executors.ts) where the emulator
 * models it, else one built from its core definition (generic-executor.ts). Undefined for a type the
 * server does not have.
 */
import { CORE_NODES } from './core-nodes.generated';
import { EXECUTORS, type Executor } from './executors';
import { genericExecutor } from './generic-executor';
import { SPECIFIC_EXECUTORS } from './specific-executors';
import { PIXEL_EXECUTORS } from './pixel-executors';

const built = new Map<string, Executor>();

export function executorFor(classType: string): Executor | undefined {
	const own = PIXEL_EXECUTORS[classType] ?? SPECIFIC_EXECUTORS[classType] ?? EXECUTORS[classType];
	if (own) return own;
	const definition = CORE_NODES[classType];
	if (!definition) return undefined;
	let executor = built.get(classType);
	if (!executor) {
		executor = genericExecutor(classType, definition);
		built.set(classType, executor);
	}
	return executor;
}

/** How many core node types run with an executor of their own, and how many with the generic one. */
export function executorCounts(): { specific: number; generic: number } {
	const specific = Object.keys(CORE_NODES).filter((name) => EXECUTORS[name] ?? SPECIFIC_EXECUTORS[name] ?? PIXEL_EXECUTORS[name]).length;
	return { specific, generic: Object.keys(CORE_NODES).length - specific };
}
