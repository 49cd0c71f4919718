/**
 * The self-hosted proxy in front of a real ComfyUI 0.3.64 (the emulator's `{upstream: '0.3.64'}`, the
 * spec page's last subsection): node-count progress snapshots, a status only on connect and at the
 * end, a cancel that does not cancel, ComfyUI's own node_errors. The app tells the truth there.
 */
import { test, expect, runExample, workflowControl } from './fixtures';
import { addProfile, proxySettings } from './v2-helpers';
import { holdNode, release, untilHeld } from './holds';

/** Text to image at 64×64 with this sampler and steps. */
function samplerWorkflow(sampler: string, steps: number): Record<string, unknown> {
	return {
		'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' } },
		'5': { class_type: 'CLIPTextEncode', inputs: { text: 'a lighthouse at dusk', clip: ['4', 1] } },
		'6': { class_type: 'CLIPTextEncode', inputs: { text: 'text, watermark', clip: ['4', 1] } },
		'7': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
		'3': {
			class_type: 'KSampler',
			inputs: {
				seed: 7,
				steps,
				cfg: 8,
				sampler_name: sampler,
				scheduler: 'normal',
				denoise: 1,
				model: ['4', 0],
				positive: ['5', 0],
				negative: ['6', 0],
				latent_image: ['7', 0]
			},
			_meta: { title: 'KSampler' }
		},
		'8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
		'9': { class_type: 'SaveImage', inputs: { filename_prefix: 'sampled', images: ['8', 0] } }
	};
}

test.beforeEach(async ({ emulator, app, control }) => {
	// The ComfyUI behind the proxy (node definitions) is the emulator's workflow origin as a stock ComfyUI.
	await control.scenario('comfyui-local');
	await proxySettings(emulator, { corsOrigins: [app.url], upstream: '0.3.64' });
});

test('ComfyUI 0.3.64 behind the proxy: a run shows node counts, never the snapshots’ false 100 %, and ends Done with its output', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 300 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');
	await runExample(page, 'Text to image');
	const live = page.getByRole('region', { name: 'Live progress' });
	await expect(live.getByText(/Running KSampler: step \d+ of 20/)).toBeVisible({ timeout: 20_000 });
	await expect(live.getByText(/\d+ of 7 nodes done/)).toBeVisible();
	// The snapshots read value 1.0 while the sampler runs: the bar must not say the run is complete.
	const whole = live.getByRole('progressbar', { name: 'Whole run' });
	expect(Number(await whole.getAttribute('aria-valuenow'))).toBeLessThan(100);
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 40_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible({ timeout: 15_000 });
});

test('ComfyUI 0.3.64 behind the proxy: Cancel says the server does not stop jobs, and an interrupt to the ComfyUI behind it stops the job', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 600 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');
	await runExample(page, 'Text to image');
	await expect(page.getByText(/Running KSampler: step \d+ of 20/)).toBeVisible({ timeout: 20_000 });
	await page.getByRole('button', { name: 'Cancel run' }).click({ timeout: 15_000 });
	// The proxy answers `canceling`, then reads `running`: the run says the truth, not "Cancelling".
	await expect(page.getByText(/The server accepted the cancel but does not stop jobs: the job runs on/)).toBeVisible({ timeout: 15_000 });
	await expect(page.getByText('Running', { exact: true })).toBeVisible();
	await expect(page.getByText('Cancelling', { exact: true })).toHaveCount(0);
	await page.getByRole('button', { name: 'Interrupt on the ComfyUI behind it' }).click();
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: /the ComfyUI behind the proxy/ })
			.filter({ hasText: /^(Interrupted|Sent)/ })
	).toBeVisible({ timeout: 15_000 });
	await expect(page.getByText('Cancelled', { exact: true })).toBeVisible({ timeout: 20_000 });
	await expect(page.getByText(/^Interrupted: the server stopped the job \(an interrupt to the ComfyUI behind the proxy\)/)).toBeVisible();
	await expect(page.getByText('Done', { exact: true })).toHaveCount(0);
});

test('ComfyUI 0.3.64 behind the proxy: Cancel of a waiting job says the server kept it, and the job runs later to Done', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(120_000);
	await workflowControl(emulator, 'timing', { stepMs: 300 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');
	// Another client's long job holds the one local runner, so this app's run waits in the queue.
	const blocker = samplerWorkflow('euler', 30);
	const held = await fetch(`${emulator.urls.selfHosted}/api/v2/jobs`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ workflow: blocker })
	});
	expect(held.status).toBe(201);
	await runExample(page, 'Text to image');
	await expect(page.getByText('Waiting in the queue…')).toBeVisible({ timeout: 15_000 });
	await page.getByRole('button', { name: 'Cancel run' }).click({ timeout: 15_000 });
	await expect(page.getByText(/kept the job in its queue .*it was not cancelled/)).toBeVisible({ timeout: 15_000 });
	await expect(page.getByText('Done', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
	await expect(page.getByText(/Cancelled/)).toHaveCount(0);
});

test('ComfyUI 0.3.64 behind the proxy dies mid-run: the badge and the run say the server behind it is unreachable; back, the forgotten job reads Expired with its cause, in the runs list too', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(120_000);
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');
	await runExample(page, 'Text to image');
	await untilHeld(emulator);
	await expect(page.getByText('Running', { exact: true })).toBeVisible({ timeout: 20_000 });
	// Down long enough to be seen: every answer of the proxy but /health is 503 upstream_unreachable.
	await workflowControl(emulator, 'restart', { downSeconds: 8 });
	await expect(page.getByRole('link', { name: /Connection: Self-hosted proxy, Server behind it unreachable/ })).toBeVisible({
		timeout: 20_000
	});
	await expect(page.getByText(/The server behind the proxy is unreachable: this run's state is not known/)).toBeVisible();
	// The run's own badge does not go on saying Running meanwhile.
	await expect(page.locator('main header').getByText('Not known', { exact: true })).toBeVisible();
	// Back: the restarted ComfyUI forgot the job and the proxy says `expired` before the job's deadline.
	await expect(page.getByText('Expired', { exact: true })).toBeVisible({ timeout: 40_000 });
	await expect(page.getByText(/The server no longer knows this job: the ComfyUI behind it restarted/).first()).toBeVisible();
	await expect(page.getByRole('link', { name: /Connection: Self-hosted proxy, Live/ })).toBeVisible({ timeout: 20_000 });
	await release(emulator);
	await page.goto(new URL('/', page.url()).toString());
	await expect(page.getByRole('link', { name: /^Run Text to image, expired:/ })).toBeVisible({ timeout: 15_000 });
});

// A sampler name the form accepts (an imported value) but ComfyUI's list does not hold.
test('ComfyUI 0.3.64 behind the proxy: a validation error (its own node_errors shape) shows at the field', async ({
	page,
	openApp,
	emulator
}) => {
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	const data = await page.evaluateHandle(
		(text) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([text], 'unknown-sampler.json', { type: 'application/json' }));
			return transfer;
		},
		JSON.stringify(samplerWorkflow('no-such-sampler', 4))
	);
	await page.getByRole('region', { name: 'Import a workflow' }).dispatchEvent('drop', { dataTransfer: data });
	const form = page.getByRole('form', { name: 'Run form' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const node = form.getByRole('region', { name: 'Node KSampler' });
	await expect(node.getByText(/Value not in list/).first()).toBeVisible({ timeout: 15_000 });
	await expect(node.getByText(/sampler_name: 'no-such-sampler' not in/).first()).toBeVisible();
	// Once: ComfyUI's message and details are joined into one reason, not repeated.
	await expect(node.getByText(/not in .*Value not in list/)).toHaveCount(0);
});
