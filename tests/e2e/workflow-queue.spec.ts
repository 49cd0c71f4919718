import { test, expect, openExample } from './fixtures';
import { heldInTheQueue } from './local-helpers';
import { holdNode, release, untilHeld } from './holds';

test('cancel a waiting job and interrupt the running one from the queue', async ({ page, openApp, emulator }) => {
	// The first job is held at its sampler's second step, so it is running (with progress) while the second waits.
	await holdNode(emulator, { classType: 'KSampler', step: 2 });
	await openApp('/');
	await openExample(page, 'Text to image');
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('link', { name: 'Open run Text to image' })).toHaveCount(2);
	await untilHeld(emulator);

	await page.goto(page.url().replace(/\/workflows\/.*$/, '/queue'));
	await expect(page.getByRole('heading', { name: 'Waiting (1)' })).toBeVisible();
	// Two runs of one workflow are told apart by their seeds, and the running one shows how far it is.
	await expect(page.getByText(/^seed \d+$/)).toHaveCount(2);
	await expect(page.getByRole('progressbar', { name: 'Progress of Text to image' })).toBeVisible();
	// The waiting job's own Cancel goes the way a Cancel of a selection goes, and says what the server confirmed.
	await page.getByRole('region', { name: 'Waiting' }).getByRole('button', { name: 'Cancel Text to image' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'was asked to cancel 1 job one by one and confirmed 1 cancelled.' })
	).toBeVisible();
	await expect(page.getByRole('list', { name: 'What the server did with each job' })).toContainText(
		'Text to image: removed from the queue (confirmed)'
	);
	await expect(page.getByRole('heading', { name: 'Waiting (0)' })).toBeVisible();

	await page.getByRole('button', { name: 'Interrupt Text to image' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Interrupt sent' })).toBeVisible();
	// The held sampler reaches its next checkpoint, where the interrupt stops it.
	await release(emulator);
	await expect(page.getByText('Nothing is running.')).toBeVisible({ timeout: 15_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	// The waiting job left the queue before it started: cancelled. The running one was stopped mid-run: interrupted.
	await expect(page.getByRole('link', { name: 'Run Text to image, cancelled' })).toHaveCount(1, { timeout: 15_000 });
	await expect(page.getByRole('link', { name: 'Run Text to image, interrupted' })).toHaveCount(1);
});

test('local ComfyUI 0.3.64: the Queue page cancels a running job as Cancel run does and says what the server did; a waiting job it removed stays Cancelled', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	test.setTimeout(120_000);
	await control.scenario('comfyui-local-legacy');
	await heldInTheQueue(page, emulator, openApp, 2);
	await page.getByRole('region', { name: 'Waiting' }).getByRole('checkbox', { name: 'Select Text to image' }).check();
	await page.getByRole('button', { name: 'Cancel selected (1)' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'was asked to cancel 1 job one by one and confirmed 1 cancelled.' })
	).toBeVisible();

	await expect(page.getByRole('heading', { name: 'Waiting (0)' })).toBeVisible();
	// The running job: ComfyUI ignores a queue delete for it; Cancel interrupts it, and the page says so.
	await page.getByRole('region', { name: 'Running' }).getByRole('button', { name: 'Cancel Text to image' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: /^(Interrupted: the server stopped the job|Sent an interrupt: the server stops the job)/ })
	).toBeVisible({ timeout: 15_000 });
	await release(emulator);
	await expect(page.getByText('Nothing is running.')).toBeVisible({ timeout: 15_000 });
	// Once the job has ended, the words say what the server did, not what it was about to do.
	await expect(page.getByRole('status').filter({ hasText: /^Interrupted: the server stopped the job/ })).toBeVisible({ timeout: 15_000 });

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: /^Run Text to image, interrupted/ })).toHaveCount(1, { timeout: 15_000 });
	await expect(page.getByRole('link', { name: /^Run Text to image, cancelled/ })).toHaveCount(1);
	// Later reads of the server, which no longer lists the removed job, leave it Cancelled: never Lost.
	await page.waitForTimeout(5000);
	await expect(page.getByRole('link', { name: /^Run Text to image, cancelled/ })).toHaveCount(1);
	await expect(page.getByRole('link', { name: /^Run Text to image, lost/ })).toHaveCount(0);
});
