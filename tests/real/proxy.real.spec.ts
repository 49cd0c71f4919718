/**
 * Browser journeys against the real self-hosted v2 proxy in front of a real ComfyUI 0.3.64
 * (`npm run test:real`). The app must be served from the origin the proxy allows
 * (RUNBOARD_REAL_APP_ORIGIN, passed to the proxy's --cors). The words on screen are what is checked.
 */
import type { Page } from '@playwright/test';
import { chainWorkflow, PROXY_COMFYUI_URL, PROXY_URL, videoWorkflow } from './real-servers';
import { addRealProfile, expect, expectPlayableVideo, pasteWorkflow, runAndOpen, runCommand, runStatus, test } from './real-app';

test.skip(!PROXY_URL, 'RUNBOARD_PROXY_URL is not set');

const proxy = PROXY_URL ?? '';
const streamsOf = (requests: { url: string }[]) => requests.filter((r) => r.url.startsWith(proxy) && /\/events(\?|$)/.test(r.url));
/**
 * Runs the pasted workflow and opens its page; resolves with the id the proxy gave its job. Streams are
 * counted for that job: the app also follows jobs the server lists as running that it did not start,
 * and a whole run once saw a second stream, for a job id the proxy no longer knew minutes later.
 */
async function runOnProxy(page: Page): Promise<string> {
	const created = page.context().waitForEvent('response', {
		predicate: (r) => r.url() === `${proxy}/api/v2/jobs` && r.request().method() === 'POST',
		timeout: 30_000
	});
	await runAndOpen(page);
	return ((await (await created).json()) as { id: string }).id;
}
const streamsOfJob = (requests: { url: string }[], jobId: string) => streamsOf(requests).filter((r) => r.url.includes(`/jobs/${jobId}/`));

async function idle(): Promise<void> {
	if (!PROXY_COMFYUI_URL) return;
	const post = (path: string, body: unknown) =>
		fetch(`${PROXY_COMFYUI_URL}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	await post('/queue', { clear: true });
	await post('/interrupt', {});
	await expect
		.poll(async () => ((await (await fetch(`${PROXY_COMFYUI_URL}/queue`)).json()) as { queue_running: unknown[] }).queue_running.length, {
			timeout: 120_000
		})
		.toBe(0);
}

/** The "N of M nodes done" count on the run page, or -1 while it shows none. */
async function nodesDone(page: Page, total: number): Promise<number> {
	const text =
		(await page
			.getByText(new RegExp(`\\d+ of ${total} nodes done`))
			.first()
			.textContent({ timeout: 1000 })
			.catch(() => null)) ?? '';
	const match = new RegExp(`(\\d+) of ${total} nodes done`).exec(text);
	return match ? Number(match[1]) : -1;
}

test.beforeEach(async ({ page, app }) => {
	await idle();
	await addRealProfile(page, app, { kind: 'Self-hosted proxy', url: proxy, comfyUrl: PROXY_COMFYUI_URL });
});

test('progress is live: Running, node counts that move, the graph’s node states, then Done with its image, over one event stream', async ({
	page,
	requests
}) => {
	await pasteWorkflow(page, chainWorkflow(6));
	const jobId = await runOnProxy(page);
	await expect(runStatus(page, 'Running')).toBeVisible({ timeout: 60_000 });
	await expect.poll(() => nodesDone(page, 8), { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
	const first = await nodesDone(page, 8);
	await expect.poll(() => nodesDone(page, 8), { timeout: 120_000 }).toBeGreaterThan(first);
	await expect(page.getByText('Waiting in the queue…')).toHaveCount(0);
	await page.getByRole('tab', { name: 'Graph' }).click();
	const states = page.getByRole('list', { name: 'Node states' });
	await expect(states).toContainText(/: Done/);
	await expect(states).toContainText(/SaveImage: Waiting/);
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 180_000 });
	await expect(states).toContainText(/SaveImage: Done/);
	await expect(states).not.toContainText('Not reported');
	await page.getByRole('tab', { name: 'Details' }).click();
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible({ timeout: 30_000 });
	expect(streamsOfJob(requests, jobId), 'one event stream for the job, in one page load').toHaveLength(1);
});

test('a video the proxy types as an image (SaveVideo, content type video/mp4) shows as a video that plays', async ({ page }) => {
	await pasteWorkflow(page, videoWorkflow());
	await runOnProxy(page);
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 180_000 });
	await expectPlayableVideo(page, 64);
});

test('Cancel says the server accepted it but does not stop jobs; the interrupt to the ComfyUI behind it stops the job, read back', async ({
	page
}) => {
	test.skip(!PROXY_COMFYUI_URL, 'RUNBOARD_PROXY_COMFYUI_URL is not set');
	await pasteWorkflow(page, chainWorkflow(12));
	await runAndOpen(page);
	await expect(runStatus(page, 'Running')).toBeVisible({ timeout: 60_000 });
	await page.getByRole('button', { name: 'Cancel run' }).click();
	await expect(
		page.getByText(
			`The server accepted the cancel but does not stop jobs: the job runs on, and is still followed here. An interrupt sent to the ComfyUI behind it (${PROXY_COMFYUI_URL}) can stop it.`
		)
	).toBeVisible();
	await expect(runStatus(page, 'Running')).toBeVisible();
	await expect(runStatus(page, 'Cancelling')).toHaveCount(0);
	await page.getByRole('button', { name: 'Interrupt on the ComfyUI behind it' }).click();
	await expect(
		page.getByText(/^Interrupted: the server stopped the job \(an interrupt to the ComfyUI behind the proxy\)/).first()
	).toBeVisible({
		timeout: 60_000
	});
	await expect(runStatus(page, 'Cancelled')).toBeVisible();
	await expect(runStatus(page, 'Done')).toHaveCount(0);
});

test('Cancel of a waiting job says the server kept it in its queue; the job runs later to Done', async ({ page }) => {
	test.skip(!PROXY_COMFYUI_URL, 'RUNBOARD_PROXY_COMFYUI_URL is not set (to end the job that holds the queue)');
	// Another client's long job holds the one runner, so this app's run waits in the queue.
	const blocker = await fetch(`${proxy}/api/v2/jobs`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ workflow: chainWorkflow(20) })
	});
	expect(blocker.status).toBe(201);
	await pasteWorkflow(page, chainWorkflow(2));
	await runAndOpen(page);
	await expect(page.getByText('Waiting in the queue…')).toBeVisible({ timeout: 60_000 });
	await page.getByRole('button', { name: 'Cancel run' }).click();
	await expect(page.getByText(/kept the job in its queue .*it was not cancelled/)).toBeVisible();
	await fetch(`${PROXY_COMFYUI_URL}/interrupt`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 180_000 });
	await expect(runStatus(page, 'Cancelled')).toHaveCount(0);
});

test('a reload mid-run: counts move again on the new page and the run ends Done', async ({ page, requests }) => {
	// Long enough that the run cannot end before the reloaded page has read it: 8 hops took 19 s on a quiet machine,
	// short enough to end while the new page was loading.
	await pasteWorkflow(page, chainWorkflow(24));
	const jobId = await runOnProxy(page);
	await expect.poll(() => nodesDone(page, 26), { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
	expect(streamsOfJob(requests, jobId)).toHaveLength(1);
	await page.reload();
	const before = await nodesDone(page, 26).then((n) => Math.max(n, 2));
	await expect.poll(() => nodesDone(page, 26), { timeout: 120_000 }).toBeGreaterThan(before);
	await expect(runStatus(page, 'Done')).toBeVisible({ timeout: 240_000 });
	await expect(page.getByRole('img', { name: /^Output / }).first()).toBeVisible({ timeout: 30_000 });
});

test('with the runs page and one run page open and a healthy stream, the app asks the proxy at most 12 times a minute', async ({
	page,
	context,
	app,
	requests
}) => {
	test.skip(!PROXY_COMFYUI_URL, 'RUNBOARD_PROXY_COMFYUI_URL is not set (to stop the long job afterwards)');
	await pasteWorkflow(page, chainWorkflow(40));
	await runAndOpen(page);
	await expect.poll(() => nodesDone(page, 42), { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
	const runs = await context.newPage();
	await runs.goto(`${app.url}/`);
	await expect(runs.getByRole('link', { name: /, running/ }).first()).toBeVisible();
	const from = Date.now();
	await page.waitForTimeout(60_000);
	const inMinute = requests.filter((r) => r.at >= from && r.at < from + 60_000 && r.url.startsWith(proxy));
	const byPath = Object.entries(
		inMinute.reduce<Record<string, number>>((acc, r) => {
			const key = `${r.method} ${new URL(r.url).pathname.replace(/[0-9a-f-]{36}/g, ':id')}`;
			acc[key] = (acc[key] ?? 0) + 1;
			return acc;
		}, {})
	);
	console.log(`requests to the proxy in one minute: ${inMinute.length}`, JSON.stringify(byPath));
	await expect(runStatus(page, 'Running')).toBeVisible();
	expect(inMinute.length).toBeLessThanOrEqual(12);
	await fetch(`${PROXY_COMFYUI_URL}/interrupt`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
});

test.describe('the ComfyUI behind the proxy goes down', () => {
	test.skip(
		!process.env['RUNBOARD_PROXY_COMFYUI_STOP'] || !process.env['RUNBOARD_PROXY_COMFYUI_START'],
		'RUNBOARD_PROXY_COMFYUI_STOP/START are not set'
	);

	test('mid-run: the badge and the run say the server behind the proxy is unreachable; back, the forgotten job reads Expired with its cause, in the runs list too', async ({
		page,
		app
	}) => {
		await pasteWorkflow(page, chainWorkflow(12));
		await runAndOpen(page);
		await expect(runStatus(page, 'Running')).toBeVisible({ timeout: 60_000 });
		runCommand('RUNBOARD_PROXY_COMFYUI_STOP');
		try {
			await expect(page.getByRole('link', { name: /Connection: Self-hosted proxy, Server behind it unreachable/ })).toBeVisible({
				timeout: 60_000
			});
			await expect(page.getByText(/The server behind the proxy is unreachable: this run's state is not known/)).toBeVisible();
			await expect(runStatus(page, 'Not known')).toBeVisible();
			await expect(runStatus(page, 'Running')).toHaveCount(0);
		} finally {
			runCommand('RUNBOARD_PROXY_COMFYUI_START');
		}
		await expect(runStatus(page, 'Expired')).toBeVisible({ timeout: 90_000 });
		await expect(page.getByText(/The server no longer knows this job: the ComfyUI behind it restarted/).first()).toBeVisible();
		await expect(page.getByRole('link', { name: /Connection: Self-hosted proxy, Live/ })).toBeVisible({ timeout: 60_000 });
		await page.goto(`${app.url}/`);
		await expect(page.getByRole('link', { name: /, expired/ }).first()).toBeVisible({ timeout: 30_000 });
		await expect(page.getByRole('link', { name: /, failed/ })).toHaveCount(0);
	});
});
