/**
 * Browser journeys against a real local ComfyUI 0.3.64 (`npm run test:real`): the built app, a Local
 * ComfyUI profile, model-free chains that really run. The words on screen are what is checked.
 */
import { chainWorkflow, COMFYUI_URL, videoWorkflow } from './real-servers';
import { addRealProfile, expect, expectPlayableVideo, pasteWorkflow, runAndOpen, runCommand, runStatus, test } from './real-app';

test.skip(!COMFYUI_URL, 'RUNBOARD_COMFYUI_URL is not set');

const url = COMFYUI_URL ?? '';

async function post(path: string, body: unknown): Promise<Response> {
	return fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

async function idle(): Promise<void> {
	await post('/interrupt', {});
	await post('/queue', { clear: true });
	await expect
		.poll(async () => ((await (await fetch(`${url}/queue`)).json()) as { queue_running: unknown[] }).queue_running.length, {
			timeout: 120_000
		})
		.toBe(0);
}

test.beforeEach(async ({ page, app }) => {
	await idle();
	await addRealProfile(page, app, { kind: 'Local ComfyUI', url });
});

test('a run shows its progress live, ends Done with its image, and the graph says each node is done', async ({ page }) => {
	await pasteWorkflow(page, chainWorkflow(3));
	await runAndOpen(page);
	await expect(page.getByText(/\d+ of 5 nodes done/).first()).toBeVisible({ timeout: 60_000 });
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 180_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible({ timeout: 30_000 });
	await page.getByRole('tab', { name: 'Graph' }).click();
	await expect(page.getByRole('list', { name: 'Node states' })).toContainText(/SaveImage: Done/);
});

test('a video ComfyUI saves (SaveVideo, listed under images) shows as a video that plays, not a broken picture', async ({ page }) => {
	await pasteWorkflow(page, videoWorkflow());
	await runAndOpen(page);
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 180_000 });
	await expectPlayableVideo(page, 64);
});

test('Cancel run on a running job interrupts it, and the run reads Interrupted with what the server did', async ({ page }) => {
	await pasteWorkflow(page, chainWorkflow(10));
	await runAndOpen(page);
	await expect(runStatus(page, 'Running')).toBeVisible({ timeout: 60_000 });
	await page.getByRole('button', { name: 'Cancel run' }).click();
	await expect(
		page.getByText(/^(Interrupted: the server stopped the job|Sent an interrupt: the server stops the job)/).first()
	).toBeVisible();
	await expect(page.getByText(/^Interrupted: the server stopped the job \(an interrupt\)/).first()).toBeVisible({ timeout: 60_000 });
	await expect(runStatus(page, 'Interrupted')).toBeVisible();
	await expect(runStatus(page, 'Done')).toHaveCount(0);
});

test('the Queue page interrupts the running job and removes the waiting one; both say so, and the removed one stays Cancelled, never Lost', async ({
	page,
	app
}) => {
	await pasteWorkflow(page, chainWorkflow(10));
	await page.getByLabel('Run times').fill('2');
	await page.getByRole('button', { name: 'Run 2 times' }).click();
	await expect(page.getByRole('link', { name: /^Open run / })).toHaveCount(2, { timeout: 30_000 });
	await page.goto(`${app.url}/queue`);
	await expect(page.getByRole('heading', { name: 'Waiting (1)' })).toBeVisible({ timeout: 60_000 });
	await page.getByRole('region', { name: 'Waiting' }).getByRole('checkbox').first().check();
	await page.getByRole('button', { name: 'Cancel selected (1)' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'was asked to cancel 1 job one by one and confirmed 1 cancelled.' })
	).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Waiting (0)' })).toBeVisible();
	await page
		.getByRole('region', { name: 'Running' })
		.getByRole('button', { name: /^Cancel / })
		.click();
	await expect(page.getByRole('status').filter({ hasText: /^Interrupted: the server stopped the job \(an interrupt\)/ })).toBeVisible({
		timeout: 60_000
	});
	await expect(page.getByText('Nothing is running.')).toBeVisible({ timeout: 60_000 });
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: /, interrupted/ })).toHaveCount(1, { timeout: 30_000 });
	await expect(page.getByRole('link', { name: /, cancelled/ })).toHaveCount(1);
	// Later reads of the server, which no longer lists the removed job, leave it Cancelled.
	await page.waitForTimeout(8000);
	await expect(page.getByRole('link', { name: /, cancelled/ })).toHaveCount(1);
	await expect(page.getByRole('link', { name: /, lost/ })).toHaveCount(0);
});

test('a job another client started shows Running with a start time, in the runs list and on its page', async ({ page }) => {
	const submitted = await post('/prompt', { prompt: chainWorkflow(8), client_id: 'another-client' });
	const { prompt_id: id } = (await submitted.json()) as { prompt_id: string };
	await expect
		.poll(async () => JSON.stringify(((await (await fetch(`${url}/queue`)).json()) as { queue_running: unknown[] }).queue_running), {
			timeout: 60_000
		})
		.toContain(id);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	const run = page.getByRole('link', { name: /started elsewhere\), running:/ });
	await expect(run).toBeVisible({ timeout: 30_000 });
	await run.click();
	await expect(runStatus(page, 'Running')).toBeVisible();
	await expect(page.getByText(/^Started\b/).first()).toBeVisible();
	// Started: a time, not a dash (only Finished is a dash); its progress goes to the other client alone.
	await expect(page.getByRole('definition').nth(2)).toHaveText(/\d/);
	await expect(page.getByText(/its progress goes only to the client that started it/)).toBeVisible();
	await expect(page.getByText(/0 of 10 nodes done/)).toHaveCount(0);
	await post('/interrupt', { prompt_id: id });
});

test.describe('restarts', () => {
	test.skip(!process.env['RUNBOARD_COMFYUI_STOP'] || !process.env['RUNBOARD_COMFYUI_START'], 'RUNBOARD_COMFYUI_STOP/START are not set');

	test('the server restarts mid-run: the run says the server does not answer, then Lost with the cause, and the badge is Live again', async ({
		page
	}) => {
		await pasteWorkflow(page, chainWorkflow(12));
		await runAndOpen(page);
		await expect(runStatus(page, 'Running')).toBeVisible({ timeout: 60_000 });
		runCommand('RUNBOARD_COMFYUI_STOP');
		try {
			await expect(page.getByText(/The server does not answer: this run's state is not known until it answers again/)).toBeVisible({
				timeout: 60_000
			});
			await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, (?!Live)/ })).toBeVisible();
			await expect(runStatus(page, 'Not known')).toBeVisible();
		} finally {
			runCommand('RUNBOARD_COMFYUI_START');
		}
		await expect(page.getByRole('link', { name: /Connection: Local ComfyUI, Live/ })).toBeVisible({ timeout: 60_000 });
		await expect(runStatus(page, 'Lost')).toBeVisible({ timeout: 30_000 });
		await expect(page.getByText(/The server restarted/).first()).toBeVisible();
	});
});
