/**
 * A local ComfyUI as it really is, current and 0.3.64 (emulator scenarios `comfyui-local` and
 * `comfyui-local-legacy`): a restart mid-run loses the run (never "Cancelled"), Cancel on the
 * running job interrupts it and says so, a text output shows, and no request goes to a route the
 * server lacks (read from the emulator's request counters).
 */
import type { Emulator } from '../../emulator';
import { test, expect, workflowControl, runExample } from './fixtures';
import { addLocalProfile } from './local-helpers';
import { holdNode, release } from './holds';

const TEXT_WORKFLOW = { '1': { class_type: 'PreviewAny', inputs: { source: 'a red fox at dawn' } } };

async function requestsSeen(emulator: Emulator): Promise<string[]> {
	const counters = (await (await fetch(`${emulator.urls.workflow}/__emulator/counters`)).json()) as { requests: Record<string, number> };
	return Object.keys(counters.requests);
}

for (const scenario of ['comfyui-local', 'comfyui-local-legacy'] as const) {
	test(`${scenario}: unknown while down, lost after a restart, Cancel interrupts, text shows, no request to a missing route`, async ({
		page,
		openApp,
		emulator,
		control
	}) => {
		test.setTimeout(180_000);
		await control.scenario(scenario);
		// Each run is held in its sampler: the restart and the cancel land mid-run however slow the machine.
		await holdNode(emulator, { classType: 'KSampler' });
		await openApp('/settings');
		await addLocalProfile(page, emulator);

		// A restart mid-run: ComfyUI's history lives in memory, so the job is gone. Lost, not cancelled.
		await runExample(page, 'Text to image');
		await expect(page.getByText('Running', { exact: true })).toBeVisible({ timeout: 20_000 });
		await workflowControl(emulator, 'restart', { downSeconds: 3 });
		// While it answers nothing, the run's state is unknown, and the page says so.
		await expect(page.getByRole('status').filter({ hasText: "The server does not answer: this run's state is not known" })).toBeVisible({
			timeout: 10_000
		});
		await expect(page.getByText('Lost', { exact: true })).toBeVisible({ timeout: 30_000 });
		await expect(page.getByText(/The server restarted while this ran/)).toBeVisible();
		await expect(page.getByRole('button', { name: /Run again/ })).toBeVisible();
		await expect(page.getByText('Cancelled', { exact: true })).toHaveCount(0);

		// Cancel on the running job: interrupted by the best route the server has, and said so.
		await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible({ timeout: 20_000 });
		await runExample(page, 'Text to image');
		await expect(page.getByText('Running', { exact: true })).toBeVisible({ timeout: 20_000 });
		await page.getByRole('button', { name: 'Cancel run' }).click();
		await expect(
			page
				.getByRole('status')
				.filter({ hasText: /Interrupted: the server stopped the job|the server stops the job when its current node ends/ })
		).toBeVisible();
		await expect(page.getByText('Interrupted', { exact: true })).toBeVisible({ timeout: 20_000 });
		await expect(page.getByText(/Interrupted at /)).toBeVisible();
		await release(emulator);

		// A text output (PreviewAny) shows as text with the run's outputs.
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
		const data = await page.evaluateHandle((text) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([text], 'Text preview.json', { type: 'application/json' }));
			return transfer;
		}, JSON.stringify(TEXT_WORKFLOW));
		await page.getByRole('region', { name: 'Import a workflow' }).dispatchEvent('drop', { dataTransfer: data });
		await page.getByRole('button', { name: 'Run', exact: true }).click();
		await page.getByRole('link', { name: /^Open run / }).click();
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
		await expect(page.getByRole('region', { name: 'Text outputs' }).getByText('a red fox at dawn')).toBeVisible();
		// Back on the workflow, the earlier run stands in its history strip as its text's first line, not "no image".
		await page.getByRole('link', { name: 'Open workflow' }).click();
		await expect(page.getByRole('region', { name: 'Earlier runs here' }).getByText('a red fox at dawn')).toBeVisible({ timeout: 15_000 });

		const seen = await requestsSeen(emulator);
		expect(seen.filter((r) => r.includes('/api/job/'))).toEqual([]);
		if (scenario === 'comfyui-local-legacy') {
			// The one look at the job list is the version probe (0.3.64 answers /api/features too, so it cannot tell).
			expect(seen.filter((r) => r.includes('/api/jobs') || r.includes('/api/assets/from-hash'))).toEqual(['GET /api/jobs']);
			expect(seen).toContain('POST /api/interrupt');
		} else {
			expect(seen).toContain('POST /api/jobs/:id/cancel');
		}
	});
}
