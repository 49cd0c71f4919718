/** For vitest files only (the benchmark shares test-support, which must not import vitest). */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Emulator } from '../index';
import { control, startEmulator } from './test-support';

/**
 * One emulator for the calling test file, reset before each test with fast steps (2 ms). The
 * returned holder's `emu` is there once the file's tests run.
 */
export function useWorkflowEmulator(): { emu: Emulator } {
	const holder = {} as { emu: Emulator };
	beforeAll(async () => {
		holder.emu = await startEmulator();
	});
	afterAll(async () => holder.emu.close());
	beforeEach(async () => {
		await control(holder.emu, '/reset');
		await control(holder.emu, '/workflow/timing', { stepMs: 2 });
	});
	return holder;
}
