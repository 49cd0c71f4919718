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

it('closing lets a node held until released go, and its job stops', async () => {
	const emu = await startEmulator();
	await control(emu, '/workflow/timing', { stepMs: 2, holdNode: { classType: 'VAEDecode' } });
	expect((await api(emu).submit(variant(textToImage as ApiPrompt, { '5': { width: 64, height: 64 }, '3': { steps: 2 } }))).status).toBe(
		200
	);
	await expect.poll(() => emu.workflow.engine.holds.list().length).toBe(1);
	await emu.close();
	expect(emu.workflow.engine.holds.list()).toEqual([]);
	await expect.poll(() => emu.workflow.engine.book.runningJobs()).toEqual([]);
});
