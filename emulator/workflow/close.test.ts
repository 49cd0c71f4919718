import { expect, it } from 'vitest';
import textToImage from '../../src/lib/workflows/rules/examples/text-to-image.json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { api, control, startEmulator, variant } from './test-support';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

it('closing stops running and waiting jobs at once: no step timer keeps the process alive', async () => {
	const emu = await startEmulator();
	const before = timers();
	await control(emu, '/workflow/timing', { stepMs: 60_000 });
	for (const seed of [1, 2, 3]) expect((await api(emu).submit(variant(textToImage as ApiPrompt, { '3': { seed } }))).status).toBe(200);
	// The first job reaches its first minute-long step.
	await expect.poll(() => emu.workflow.engine.book.runningJobs().length).toBe(1);
	await expect.poll(timers).toBeGreaterThan(before);
	await emu.close();
	await expect.poll(timers).toBeLessThanOrEqual(before);
	expect(emu.workflow.engine.book.runningJobs()).toEqual([]);
});
