/**
 * Workflow runs on the v2 jobs API, the third surface: the managed service (a Cloud profile whose
 * service offers v2), a deployment endpoint and the self-hosted proxy, against the emulator.
 */
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { demoConfig, serveApp } from '../../scripts/serve-app';
import { E2E_TIMINGS, test, expect, openExample, runExample, workflowControl } from './fixtures';
import { addProfile, proxySettings } from './v2-helpers';
import { holdNode, oneStepWhileWatched, release, untilHeld } from './holds';

const LIVE_QUEUE_4S = { ...E2E_TIMINGS, liveQueueEveryMs: 4_000 };

async function picture(seed: number): Promise<Buffer> {
	return sharp({ create: { width: 96, height: 64, channels: 3, background: { r: seed % 255, g: 90, b: 200 } } })
		.png()
		.toBuffer();
}

async function chooseImage(page: Page, buffer: Buffer): Promise<void> {
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await node.locator('input[type=file]').first().setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/^core\/ASSET:/);
}

/**
 * An image input and a sampler in one workflow (the emulator has no VAEEncode, so the picture is
 * edited beside a text-to-image chain): the run has live progress and previews besides its outputs.
 */
const IMAGE_AND_SAMPLER = {
	'1': { class_type: 'LoadImage', inputs: { image: 'example.png' }, _meta: { title: 'Load Image' } },
	'2': { class_type: 'ImageInvert', inputs: { image: ['1', 0] }, _meta: { title: 'Invert Image' } },
	'3': { class_type: 'SaveImage', inputs: { filename_prefix: 'inverted', images: ['2', 0] }, _meta: { title: 'Save Image' } },
	'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' } },
	'5': { class_type: 'CLIPTextEncode', inputs: { text: 'a lighthouse at dusk', clip: ['4', 1] } },
	'6': { class_type: 'CLIPTextEncode', inputs: { text: 'text, watermark', clip: ['4', 1] } },
	'7': { class_type: 'EmptyLatentImage', inputs: { width: 256, height: 256, batch_size: 1 } },
	'8': {
		class_type: 'KSampler',
		inputs: {
			seed: 7,
			steps: 20,
			cfg: 8,
			sampler_name: 'euler',
			scheduler: 'normal',
			denoise: 1,
			model: ['4', 0],
			positive: ['5', 0],
			negative: ['6', 0],
			latent_image: ['7', 0]
		},
		_meta: { title: 'KSampler' }
	},
	'9': { class_type: 'VAEDecode', inputs: { samples: ['8', 0], vae: ['4', 2] } },
	'10': { class_type: 'SaveImage', inputs: { filename_prefix: 'sampled', images: ['9', 0] }, _meta: { title: 'Save sampled' } }
};

/** Imports IMAGE_AND_SAMPLER (dropped as a file), chooses the picture, runs it and opens the run. */
async function runImageAndSampler(page: Page, buffer: Buffer): Promise<void> {
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	const data = await page.evaluateHandle((text) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([text], 'image-and-sampler.json', { type: 'application/json' }));
		return transfer;
	}, JSON.stringify(IMAGE_AND_SAMPLER));
	await page.getByRole('region', { name: 'Import a workflow' }).dispatchEvent('drop', { dataTransfer: data });
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible({ timeout: 15_000 });
	await chooseImage(page, buffer);
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run image-and-sampler' }).click();
}

function v2Requests(counters: { requests: Record<string, number> }, what: string): number {
	return Object.entries(counters.requests)
		.filter(([k]) => k.includes(what))
		.reduce((n, [, v]) => n + v, 0);
}

for (const kind of ['Cloud', 'Self-hosted proxy'] as const) {
	test(`${kind} on v2: an image input runs to the end with live progress and previews, outputs shown; the same image again sends 0 file bytes`, async ({
		page,
		openApp,
		emulator,
		app,
		control
	}) => {
		test.setTimeout(90_000);
		if (kind === 'Self-hosted proxy') {
			// The ComfyUI behind the proxy (node definitions) is the emulator's workflow origin as a stock ComfyUI.
			await control.scenario('comfyui-local');
			await proxySettings(emulator, { corsOrigins: [app.url] });
		}
		// The sampler is held as it starts, then takes a step while the run page watches.
		await holdNode(emulator, { classType: 'KSampler' });
		await openApp('/settings');
		await addProfile(page, emulator, kind);

		const bytes = await picture(11);
		await runImageAndSampler(page, bytes);
		// Live: progress and previews from the job's event stream while the sampler runs.
		await expect(page.getByRole('region', { name: 'Live progress' })).toBeVisible({ timeout: 15_000 });
		await oneStepWhileWatched(emulator);
		await expect(page.getByRole('img', { name: /Latest preview from KSampler/ })).toBeVisible({ timeout: 15_000 });
		await expect(page.getByText(/KSampler/).first()).toBeVisible();
		await release(emulator);
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
		// Both outputs: the edited picture and the sampled one.
		await expect(page.getByRole('img', { name: /^Output / })).toHaveCount(2, { timeout: 15_000 });
		const first = await control.counters();
		const surface = kind === 'Cloud' ? 'managed' : 'self-hosted';
		expect(first.uploadBytes[surface], 'the picture was sent once').toBe(bytes.length);

		await page.getByRole('link', { name: 'Open workflow' }).click();
		await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible();
		if (kind === 'Cloud') {
			// Copy as code sends where the runs went: v2, with the Bearer key as a variable and a fresh idempotency key.
			await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
			await page.locator('summary', { hasText: 'Copy as code' }).click();
			const copy = page.getByRole('group', { name: 'Copy as code' });
			await copy.getByRole('button', { name: 'Copy as curl' }).click();
			await expect(copy.getByRole('status')).toContainText('Copied as curl.');
			const curl = await page.evaluate(() => navigator.clipboard.readText());
			expect(curl).toContain(`${emulator.urls.workflow}/api/v2/jobs`);
			expect(curl).toContain('Authorization: Bearer $WORKFLOW_API_KEY');
			expect(curl).toContain('Idempotency-Key');
			expect(curl).not.toContain(emulator.apiKey);
		}
		await chooseImage(page, bytes);
		// The field may still show the first run's reference: wait for the service to be asked about the hash.
		await expect
			.poll(async () => v2Requests(await control.counters(), 'POST /api/v2/assets/from-hash'), { timeout: 15_000 })
			.toBeGreaterThan(v2Requests(first, 'POST /api/v2/assets/from-hash'));
		// The sending is over (its status line gone): only now is "no upload" a fact.
		await expect(page.getByRole('region', { name: 'Node Load Image' }).getByRole('status')).toHaveCount(0, { timeout: 15_000 });
		const second = await control.counters();
		expect(v2Requests(second, 'POST /api/v2/assets') - v2Requests(second, 'from-hash'), 'no second upload').toBe(
			v2Requests(first, 'POST /api/v2/assets') - v2Requests(first, 'from-hash')
		);
		expect(second.uploadBytes[surface], 'known content costs 0 file bytes (emulator counter)').toBe(bytes.length);
	});
}

for (const kind of ['Cloud', 'Self-hosted proxy'] as const) {
	test(`${kind} on v2: a submit whose answer is dropped after the job was created leaves exactly one job`, async ({
		page,
		openApp,
		emulator,
		app,
		control
	}) => {
		test.setTimeout(90_000);
		if (kind === 'Self-hosted proxy') {
			await control.scenario('comfyui-local');
			await proxySettings(emulator, { corsOrigins: [app.url] });
		}
		await workflowControl(emulator, 'timing', { stepMs: 30 });
		await openApp('/settings');
		await addProfile(page, emulator, kind);
		await openExample(page, 'Image edit');
		await chooseImage(page, await picture(13));
		// The job is created and recorded under its key; the connection is cut before the answer.
		await control.faults({ v2DropAnswers: 1 });
		await page.getByRole('button', { name: 'Run', exact: true }).click();
		await page.getByRole('link', { name: 'Open run Image edit' }).click();
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
		const state = (await (await fetch(`${emulator.urls.workflow}/__emulator/v2/state`)).json()) as { jobs: string[] };
		expect(state.jobs, 'the retry found the first job (managed: replay; proxy: 422, then GET /jobs)').toHaveLength(1);
		const counters = await control.counters();
		expect(counters.requests['POST /api/v2/jobs'] ?? 0, 'sent again under the same key').toBeGreaterThanOrEqual(2);
		if (kind === 'Self-hosted proxy') expect(counters.requests['GET /api/v2/jobs'] ?? 0, 'the job list was read').toBeGreaterThanOrEqual(1);
	});
}

for (const kind of ['Cloud', 'Self-hosted proxy'] as const) {
	test(`${kind} on v2: a job started on another device appears as a run started elsewhere and is followed to its end`, async ({
		page,
		openApp,
		emulator,
		control
	}) => {
		test.setTimeout(90_000);
		// A proxy tells of other clients' jobs only in its job list, read at the live-queue pace (product:
		// every 10 s): this test serves the app with a shorter one rather than wait it out.
		const served =
			kind === 'Self-hosted proxy' ? await serveApp({ root: 'build', config: demoConfig(emulator, { timings: LIVE_QUEUE_4S }) }) : null;
		if (served) {
			await control.scenario('comfyui-local');
			await proxySettings(emulator, { corsOrigins: [served.url] });
		}
		// Held in its sampler, the other device's job is still running when this app first hears of it.
		await holdNode(emulator, { classType: 'KSampler' });
		if (served) {
			await page.goto(`${served.url}/settings`);
			await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
		} else await openApp('/settings');
		await addProfile(page, emulator, kind);
		await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();

		// Another device submits through the same surface (managed: the account's key; proxy: no key).
		const base = kind === 'Cloud' ? emulator.urls.workflow : emulator.urls.selfHosted;
		const workflow = JSON.parse(JSON.stringify(IMAGE_AND_SAMPLER)) as Record<string, { inputs: Record<string, unknown> }>;
		delete workflow['1'];
		delete workflow['2'];
		delete workflow['3'];
		const res = await fetch(`${base}/api/v2/jobs`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...(kind === 'Cloud' ? { Authorization: `Bearer ${emulator.apiKey}` } : {}) },
			body: JSON.stringify({ workflow })
		});
		expect(res.status).toBe(201);

		// Managed: the account's v1 socket tells of it; proxy: GET /jobs lists it.
		const seen = page.getByRole('link', { name: /started elsewhere/ });
		await expect(seen.first()).toBeVisible({ timeout: 20_000 });
		await seen.first().click();
		await untilHeld(emulator);
		await release(emulator);
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
		await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
		if (kind === 'Self-hosted proxy') expect((await control.counters()).requests['GET /api/v2/jobs'] ?? 0).toBeGreaterThanOrEqual(1);
		await served?.close();
	});
}

// On a proxy the profile's key is the proxy's static token; partner nodes need a Comfy account key,
// a second secret of the profile, sent as extra_data.api_key_comfy_org (the proxy's one extra_data field).
test('Self-hosted proxy: partner nodes run to Done with the Comfy account key; without it the workflow page warns before Run', async ({
	page,
	openApp,
	emulator,
	app,
	control
}) => {
	test.setTimeout(90_000);
	await control.scenario('comfyui-local');
	await proxySettings(emulator, { corsOrigins: [app.url] });
	await workflowControl(emulator, 'timing', { stepMs: 30 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Self-hosted proxy');

	// Without the key: a warning naming the field, and Run stays on.
	await openExample(page, 'Partner nodes');
	const warning = page.getByRole('status', { name: 'Partner nodes need a key' });
	await expect(warning).toBeVisible({ timeout: 15_000 });
	await expect(warning).toContainText('Comfy account key (for partner nodes)');
	await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();

	// With the key saved in Settings: no warning, and the run ends Done.
	const comfyKey = 'comfy-account-key-e2e-7f3a';
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('button', { name: 'Edit Self-hosted proxy' }).click();
	const form = page.getByRole('form', { name: 'Edit profile Self-hosted proxy' });
	await form.getByLabel('Comfy account key (for partner nodes)').fill(comfyKey);
	await form.getByRole('button', { name: 'Save profile' }).click();
	const card = page.getByRole('article', { name: 'Profile Self-hosted proxy' });
	await expect(card.getByRole('button', { name: 'Forget the Comfy account key of Self-hosted proxy' })).toBeVisible();
	expect(await page.content(), 'the key never stays in the page after save').not.toContain(comfyKey);

	const before = await control.counters();
	await openExample(page, 'Partner nodes');
	await expect(page.getByText(/uses partner nodes, sent with your Comfy account key/)).toBeVisible({ timeout: 15_000 });
	await expect(page.getByRole('status', { name: 'Partner nodes need a key' })).toHaveCount(0);
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Partner nodes' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
	const after = await control.counters();
	expect(v2Requests(after, 'POST /api/v2/jobs') - v2Requests(before, 'POST /api/v2/jobs'), 'submitted to the proxy').toBeGreaterThan(0);
	expect(await page.content()).not.toContain(comfyKey);

	// Forgotten like the main key: the token stays, the warning comes back.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	const forget = page.getByRole('button', { name: 'Forget the Comfy account key of Self-hosted proxy' });
	await forget.click();
	await expect(forget).toHaveCount(0);
	await openExample(page, 'Partner nodes');
	await expect(page.getByRole('status', { name: 'Partner nodes need a key' })).toBeVisible({ timeout: 15_000 });
});

// A deployment serves no object_info and the spec names no other source of its node definitions:
// the form is read off the workflow's own values, and the run goes through as on the other surfaces.
test('Deployment on v2: the form is drawn from the workflow, and a run ends with its output', async ({ page, openApp, emulator }) => {
	await workflowControl(emulator, 'timing', { stepMs: 30 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Deployment');
	await openExample(page, 'Image edit');
	await expect(page.getByText(/does not publish its node definitions/)).toBeVisible();
	await chooseImage(page, await picture(12));
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Image edit' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
});

test('v2: a reload mid-run re-attaches to the job, and the stream dropped 20 times loses nothing', async ({ page, openApp, emulator }) => {
	test.setTimeout(90_000);
	// The sampler is held after step 4 across the reload, so the reload always finds it running.
	await holdNode(emulator, { classType: 'KSampler', step: 4 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Cloud');
	await runExample(page, 'Text to image');
	await untilHeld(emulator);
	await expect(page.getByText(/Running KSampler: step 4 of 20/)).toBeVisible();
	await page.reload();
	await expect(page.getByText(/Running KSampler: step \d+ of 20/)).toBeVisible();
	// The stream dropped 20 times while the sampler goes on: polling and each reconnect's first snapshot lose nothing.
	await workflowControl(emulator, 'timing', { stepMs: 100 });
	await release(emulator);
	for (let i = 0; i < 20; i++) {
		await fetch(`${emulator.urls.workflow}/__emulator/v2/streams/drop`, { method: 'POST' });
		await page.waitForTimeout(100);
	}
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
});

test('v2: cancel through urls.cancel ends the run as cancelled', async ({ page, openApp, emulator }) => {
	// Held in the sampler until the cancel arrives (a stop releases the hold).
	await holdNode(emulator, { classType: 'KSampler' });
	await openApp('/settings');
	await addProfile(page, emulator, 'Cloud');
	await runExample(page, 'Text to image');
	await page.getByRole('button', { name: 'Cancel run' }).click({ timeout: 15_000 });
	await expect(page.getByText(/Cancelled/).first()).toBeVisible({ timeout: 20_000 });
});

test('a proxy that does not allow this app’s origin: the connection test names the flag to add', async ({
	page,
	openApp,
	emulator,
	app
}) => {
	await proxySettings(emulator, { corsOrigins: ['http://example.invalid:1'] });
	await openApp('/settings');
	await page.getByRole('button', { name: 'Add profile' }).click();
	const form = page.getByRole('form', { name: 'New profile' });
	await form.getByRole('radio', { name: /^Self-hosted proxy/ }).check();
	await form.getByLabel('Proxy address').fill(emulator.urls.selfHosted);
	await form.getByRole('button', { name: 'Save profile' }).click();
	await page.getByRole('button', { name: 'Test connection of Self-hosted proxy' }).click();
	await expect(page.getByText(`--enable-cors-header ${app.url}`).first()).toBeVisible({ timeout: 15_000 });
	await expect(page.getByText(/different origins/).first()).toBeVisible();
});

// `npm start` writes a config with both demo profiles; the other tests' config has only the v1 one.
test('npm start’s v2 demo profile: seeded beside the v1 demo, its runs go through /api/v2 and end Done', async ({
	page,
	emulator,
	control
}) => {
	test.setTimeout(90_000);
	const app = await serveApp({ root: 'build', config: demoConfig(emulator, { v2: true, timings: E2E_TIMINGS }) });
	try {
		await workflowControl(emulator, 'timing', { stepMs: 30 });
		await page.goto(`${app.url}/settings`);
		await expect(page.getByRole('article', { name: 'Profile Demo (local emulator)' })).toBeVisible({ timeout: 15_000 });
		await expect(page.getByRole('article', { name: 'Profile Demo on v2 (managed)' })).toBeVisible();
		await expect(page.getByRole('link', { name: /Connection: Demo \(local emulator\), Live/ })).toBeVisible({ timeout: 15_000 });
		await page.getByRole('button', { name: 'Use Demo on v2 (managed)' }).click();
		await expect(page.getByRole('link', { name: /Connection: Demo on v2 \(managed\), Live/ })).toBeVisible({ timeout: 15_000 });
		await page.getByRole('button', { name: 'Test connection of Demo on v2 (managed)' }).click();
		await expect(page.getByText(/v2 jobs API answered: .*Workflow runs use v2\./).first()).toBeVisible({ timeout: 15_000 });

		const before = await control.counters();
		await runExample(page, 'Text to image');
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
		await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible();
		const after = await control.counters();
		const sent = (route: string) => (after.requests[route] ?? 0) - (before.requests[route] ?? 0);
		expect(sent('POST /api/v2/jobs'), 'the run was submitted to the managed v2 jobs API').toBe(1);
		expect(sent('POST /api/prompt') + sent('POST /prompt'), 'and not to v1').toBe(0);
	} finally {
		await app.close();
	}
});

/** A small text-to-image chain with a PreviewAny beside it: an image output and a text output. */
const TEXT_AND_IMAGE = {
	'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' } },
	'5': { class_type: 'CLIPTextEncode', inputs: { text: 'a lighthouse at dusk', clip: ['4', 1] } },
	'6': { class_type: 'CLIPTextEncode', inputs: { text: 'text, watermark', clip: ['4', 1] } },
	'7': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
	'8': {
		class_type: 'KSampler',
		inputs: {
			seed: 7,
			steps: 3,
			cfg: 8,
			sampler_name: 'euler',
			scheduler: 'normal',
			denoise: 1,
			model: ['4', 0],
			positive: ['5', 0],
			negative: ['6', 0],
			latent_image: ['7', 0]
		}
	},
	'9': { class_type: 'VAEDecode', inputs: { samples: ['8', 0], vae: ['4', 2] } },
	'10': { class_type: 'SaveImage', inputs: { filename_prefix: 'named', images: ['9', 0] }, _meta: { title: 'Save named' } },
	'20': { class_type: 'PreviewAny', inputs: { source: 'a red fox at dawn' }, _meta: { title: 'Show text' } }
};

test('Cloud on v2: a text output shows as text beside the image, and every output is named by its name, not its asset id', async ({
	page,
	openApp,
	emulator
}) => {
	test.setTimeout(90_000);
	await workflowControl(emulator, 'timing', { stepMs: 30 });
	await openApp('/settings');
	await addProfile(page, emulator, 'Cloud');
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
	const data = await page.evaluateHandle((text) => {
		const transfer = new DataTransfer();
		transfer.items.add(new File([text], 'text-and-image.json', { type: 'application/json' }));
		return transfer;
	}, JSON.stringify(TEXT_AND_IMAGE));
	await page.getByRole('region', { name: 'Import a workflow' }).dispatchEvent('drop', { dataTransfer: data });
	await expect(page.getByRole('form', { name: 'Run form' })).toBeVisible({ timeout: 15_000 });
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	// The workbench tile shows the text too, named.
	await expect(page.getByLabel(/^text_20_1\.txt: text from Show text/)).toBeVisible({ timeout: 20_000 });
	await page
		.getByRole('link', { name: /^Open run / })
		.first()
		.click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 20_000 });
	const texts = page.getByRole('region', { name: 'Text outputs' });
	await expect(texts.getByText('a red fox at dawn')).toBeVisible({ timeout: 15_000 });
	await expect(texts.getByText('text_20_1.txt · from Show text')).toBeVisible();
	// The image is labelled by its Output name (the file the node saved), never by its asset id.
	await expect(page.getByRole('img', { name: /^Output named_\d+_\.png$/ })).toBeVisible({ timeout: 15_000 });
	await expect(page.getByRole('img', { name: /^Output asset_/ })).toHaveCount(0);
});
