/**
 * The demo runs the workflows people have: our own workflows of the common families (image,
 * img2img, LoRA, hires fix, upscale, ControlNet, inpainting, outpainting, custom sampling, audio,
 * video, and a UI-format subgraph) are pasted in, run, and end Done with an output of their kind.
 */
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { CORE_GRAPHS, INPUT_IMAGE } from '../../emulator/workflow/core-graphs.fixture';
import { SUBGRAPH_WORKFLOW } from '../../emulator/workflow/subgraph-workflow.fixture';
import { api } from '../../emulator/workflow/test-support';

async function pasteWorkflow(page: Page, json: unknown): Promise<void> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	await page.getByLabel('Or paste the workflow JSON').fill(JSON.stringify(json));
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible();
}

const OUTPUT_ROLE = { images: 'img', video: 'video', audio: 'audio' } as const;

test('twelve workflows of our own, one per family, run to Done on the demo with outputs of their kind', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(240_000);
	const picture = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 80, b: 40 } } })
		.png()
		.toBuffer();
	expect((await api(emulator).upload('/api/upload/image', INPUT_IMAGE, new Uint8Array(picture))).status).toBe(200);
	await openApp('/workflows');
	const workflows = [
		...CORE_GRAPHS.map((g) => ({ name: g.name, json: g.prompt as unknown, kind: g.output.kind })),
		{ name: 'subgraph (UI format)', json: SUBGRAPH_WORKFLOW as unknown, kind: 'images' as const }
	];
	expect(workflows.length).toBeGreaterThanOrEqual(10);
	for (const workflow of workflows) {
		await test.step(workflow.name, async () => {
			await pasteWorkflow(page, workflow.json);
			await expect(page.getByRole('alert', { name: 'What to install' })).toHaveCount(0);
			await page.getByRole('button', { name: 'Run', exact: true }).click();
			const runs = page.getByRole('region', { name: 'Runs started' });
			await expect(runs.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
			if (workflow.kind === 'images') await expect(runs.getByRole('img', { name: /^Output / }).first()).toBeVisible();
			else await expect(runs.locator(OUTPUT_ROLE[workflow.kind]).first()).toBeAttached();
		});
	}
});
