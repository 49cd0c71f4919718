/**
 * A pool of servers behind one Run button (#31): three emulated local ComfyUI servers, one lacking
 * the example's checkpoint, one slow (its sampler held, never slowed down). Every run goes to a
 * server that can run it; stopping the slow one mid-run loses and duplicates nothing (each server's
 * own counters say how many jobs it was sent); a reload keeps the pool.
 */
import type { Page } from '@playwright/test';
import { createEmulatorPool, type EmulatorPool } from '../../emulator/pool';
import type { Emulator } from '../../emulator/index';
import { expect, hasHorizontalScroll, openExample, test } from './fixtures';
import { holdNode, release, untilHeld } from './holds';
import { addLocalServer, runOn as runOnPool, runTiles, toForm as toFormOnPhone } from './pool-helpers';

const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';
const NAMES = ['GPU A', 'GPU B', 'GPU C'] as const;

let pool: EmulatorPool;

test.beforeEach(async () => {
	pool = await createEmulatorPool([
		{ name: NAMES[0], scenario: 'comfyui-local', shape: { stepMs: 2 } },
		{ name: NAMES[1], scenario: 'comfyui-local', shape: { stepMs: 2, lacksModels: [CHECKPOINT] } },
		{ name: NAMES[2], scenario: 'comfyui-local', shape: { stepMs: 2 } }
	]);
});
test.afterEach(() => pool.close());

const server = (i: number): Emulator => pool.servers[i]!.emulator;

/** Jobs a server was sent (ComfyUI's submit route, with or without `/api`), read in-process: a stopped server still says. */
async function submits(i: number): Promise<number> {
	const { requests } = server(i).state.counters;
	return (requests['POST /api/prompt'] ?? 0) + (requests['POST /prompt'] ?? 0);
}

async function makePool(page: Page): Promise<void> {
	await page.goto(new URL('/pools', page.url()).toString());
	await page.getByRole('button', { name: 'Add pool' }).click();
	const form = page.getByRole('form', { name: 'New pool' });
	await form.getByLabel('Name').fill('Home');
	for (const name of NAMES)
		await form
			.getByRole('group', { name: `Member ${name}` })
			.getByRole('checkbox', { name })
			.check();
	await form.getByRole('button', { name: 'Save pool' }).click();
	await expect(page.getByRole('article', { name: 'Pool Home' })).toBeVisible();
}

const phone = () => test.info().project.name === 'phone';
const toForm = (page: Page) => toFormOnPhone(page, phone());
/** Where the form's runs go: pool Home, and a member or (null) the pool's choice. */
const runOn = (page: Page, member: string | null) => runOnPool(page, phone(), 'Home', member);

/** Runs the open workflow `times` times; resolves once they are sent, with the runs' pane in view. */
async function run(page: Page, times = 1): Promise<void> {
	await toForm(page);
	await page.getByLabel('Run times').fill(String(times));
	await page.getByRole('button', { name: times > 1 ? `Run ${times} times` : 'Run', exact: true }).click();
	await expect(page.getByRole('button', { name: 'Sending…' })).toHaveCount(0);
}

const tiles = runTiles;

test('a pool of three servers runs every run on a server that can, loses nothing when one stops or comes back, and is kept over a reload @phone', async ({
	page,
	openApp
}) => {
	test.setTimeout(240_000);
	await openApp('/settings');
	for (const [i, name] of NAMES.entries()) await addLocalServer(page, name, server(i));
	await makePool(page);
	expect(await hasHorizontalScroll(page)).toBe(false);

	// The slow server: its sampler stays busy until released (never, here: it is stopped first).
	await holdNode(server(2), { classType: 'KSampler' });
	await openExample(page, 'Text to image');

	// Pinned to the server that lacks the checkpoint: nothing is sent, and the form says why.
	await runOn(page, 'GPU B');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByRole('alert', { name: 'The service refused the run' })).toContainText(`GPU B lacks the model file ${CHECKPOINT}`);

	// Pinned to the slow one: it runs there, and stays running (held).
	await runOn(page, 'GPU C');
	await run(page);
	await untilHeld(server(2));
	await expect(tiles(page).first()).toContainText('Pinned to GPU C in pool Home');

	// The pool chooses: GPU C has a run ahead, GPU B lacks the checkpoint, so GPU A.
	await runOn(page, null);
	await run(page);
	await expect(tiles(page).first()).toContainText('Sent to GPU A by pool Home');
	await expect(tiles(page).first()).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
	const sentToSlow = await submits(2);

	// Another run pinned to GPU C waits there, behind the held one; the person moves it to GPU A from the pool's queue:
	// cancelled on GPU C (confirmed), then sent to GPU A, where it runs.
	await runOn(page, 'GPU C');
	await run(page);
	await expect.poll(() => submits(2)).toBe(2);
	await page.goto(new URL('/pools', page.url()).toString());
	const waitingOnC = page.getByRole('region', { name: 'Lane GPU C' }).getByRole('listitem', { name: /^Waiting: / });
	await expect(waitingOnC).toHaveCount(1, { timeout: 30_000 });
	await waitingOnC.getByRole('combobox', { name: 'Move Text to image to' }).selectOption({ label: 'GPU A' });
	await waitingOnC.getByRole('button', { name: 'Move Text to image' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Moved to GPU A' })).toBeVisible({ timeout: 30_000 });
	// The Runs list says where it went, with a link to the run it became, which says where it came from and links back.
	await page.goto(new URL('/', page.url()).toString());
	await expect(page.getByRole('link', { name: /^Run Text to image, moved to GPU A:/ })).toHaveCount(1, { timeout: 15_000 });
	expect(await hasHorizontalScroll(page)).toBe(false);
	await page.getByRole('link', { name: 'Moved to GPU A', exact: true }).click();
	await expect(page.getByText('Pinned to GPU A in pool Home, moved from GPU C (moved by you).')).toBeVisible();
	await expect(page.getByRole('heading', { level: 1 }).locator('..').getByText('Done', { exact: true })).toBeVisible({ timeout: 30_000 });
	await page.getByRole('link', { name: 'moved from GPU C' }).click();
	await expect(page.getByRole('heading', { level: 1 }).locator('..').getByText('Moved', { exact: true })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Moved to GPU A', exact: true })).toBeVisible();
	expect(await hasHorizontalScroll(page)).toBe(false);
	await openExample(page, 'Text to image');
	await runOn(page, null);

	// GPU C goes away mid-run. The next runs go where they can: GPU A, every one.
	await pool.stop(2);
	await run(page, 3);
	await expect(tiles(page)).toHaveCount(3);
	for (const tile of await tiles(page).all()) {
		await expect(tile).toContainText('Sent to GPU A by pool Home');
		await expect(tile).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
	}

	// Nothing duplicated: each run was sent once, to one server (the moved one once to each); none to the one lacking the model.
	expect(sentToSlow).toBe(1);
	expect(await submits(0)).toBe(5);
	expect(await submits(1)).toBe(0);

	// Nothing lost: the run on the stopped server is still in the history, saying where it ran.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: /Text to image/ })).toHaveCount(7, { timeout: 15_000 });

	// GPU C comes back, restarted: it forgot the run it was running. That run reads lost, saying why, and is
	// not sent again; GPU C's lane says it answers again.
	await pool.restart(2);
	const lost = page.getByRole('link', { name: /^Run Text to image, lost/ });
	await expect(lost).toHaveCount(1, { timeout: 60_000 });
	await lost.click();
	await expect(page.getByText('The server restarted while this ran, and forgot the job.')).toBeVisible();
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('link', { name: 'Manage pools' }).click();
	const laneC = page.getByRole('region', { name: 'Lane GPU C' });
	await expect(laneC).toContainText('GPU C answers again', { timeout: 30_000 });

	// It goes away again, and this time the person says so: switched off, nothing of the pool's there.
	await pool.stop(2);
	await expect(laneC).toContainText('GPU C is not answering', { timeout: 30_000 });
	await laneC.getByRole('button', { name: 'GPU C is gone…' }).click();
	const dialog = page.getByRole('dialog', { name: 'Treat GPU C as gone?' });
	await expect(dialog).toContainText('A run that started there since that last look may run on there too.');
	await dialog.getByRole('button', { name: 'Send its waiting runs elsewhere' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'GPU C is switched off' })).toHaveText(
		'GPU C is switched off in this pool. None of this pool’s runs were there.'
	);
	// Back once more: its lane says so, and the person switches it on from there.
	await pool.restart(2);
	await expect(laneC).toContainText('GPU C answers again', { timeout: 60_000 });
	await expect(laneC).toContainText('is switched off in this pool');
	// A reload keeps what GPU C was seen doing (a new worker once forgot it had been down): the lane still says so.
	await page.reload();
	await expect(laneC).toContainText('GPU C answers again', { timeout: 30_000 });
	await expect(laneC).toContainText('is switched off in this pool');
	await laneC.getByRole('button', { name: 'Switch GPU C on' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'GPU C is on again' })).toBeVisible();
	await expect(laneC.getByRole('heading', { name: /GPU C/ })).not.toContainText('off');
	expect(await submits(2)).toBe(0); // the restarted server was sent nothing again

	// A reload keeps the pool and its members.
	await page.reload();
	const card = page.getByRole('article', { name: 'Pool Home' });
	await expect(card).toBeVisible();
	for (const name of NAMES) await expect(card).toContainText(name);
	expect(await hasHorizontalScroll(page)).toBe(false);
	// Read afresh on a page load, the list never says that no run matches before it has read them (it did, for a moment).
	await page.addInitScript(() => {
		new MutationObserver(() => {
			if (document.body?.textContent?.includes('No run matches')) (window as { saidNoMatch?: boolean }).saidNoMatch = true;
		}).observe(document, { childList: true, subtree: true, characterData: true });
	});
	await page.goto(new URL('/', page.url()).toString());
	await expect(page.getByRole('link', { name: /Text to image/ })).toHaveCount(7, { timeout: 15_000 });
	expect(await page.evaluate(() => (window as { saidNoMatch?: boolean }).saidNoMatch ?? false)).toBe(false);
});

/** The app's stored workflow runs that ended otherwise than succeeded: their state, error and move. */
async function unsuccessfulRuns(page: Page): Promise<unknown[]> {
	return page.evaluate(async () => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const open = indexedDB.open('runboard');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const all = await new Promise<unknown[]>((resolve, reject) => {
			const read = db.transaction('kv').objectStore('kv').getAll();
			read.onsuccess = () => resolve(read.result);
			read.onerror = () => reject(read.error);
		});
		db.close();
		return (all as Array<Record<string, unknown> | null>)
			.filter((v) => v?.['kind'] === 'workflow' && v['status'] !== 'succeeded' && v['error'])
			.map((v) => ({ status: v!['status'], error: v!['error'], movedTo: v!['movedTo'], startedAt: v!['startedAt'], pool: v!['pool'] }));
	});
}

/** Each cell's values as a server ran them to the end: `seed/cfg` of its sampler, one per completed job. */
function completedCells(i: number): string[] {
	const cells: string[] = [];
	for (const job of server(i).workflow.engine.book.jobs.values()) {
		if (job.state !== 'completed') continue;
		const sampler = Object.values(job.prompt).find((n) => n.class_type === 'KSampler');
		cells.push(`${String(sampler?.inputs['seed'])}/${String(sampler?.inputs['cfg'])}`);
	}
	return cells.sort();
}

test('a 12-cell sweep on the pool runs every cell on a server that can; a server gone mid-sweep loses nothing and runs nothing twice @phone', async ({
	page,
	openApp
}) => {
	test.setTimeout(150_000);
	await openApp('/settings');
	for (const [i, name] of NAMES.entries()) await addLocalServer(page, name, server(i));
	await makePool(page);
	// Both servers that can run the sweep hold their samplers, so each takes a running run and keeps the next waiting.
	await holdNode(server(0), { classType: 'KSampler' });
	await holdNode(server(2), { classType: 'KSampler' });
	await openExample(page, 'Text to image');
	await runOn(page, null);

	await page.getByText('Sweep: vary inputs').click();
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const first = page.getByRole('group', { name: 'Input to vary 1 (columns)' });
	await first.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · seed' });
	await first.getByRole('textbox', { name: 'Values of input to vary 1' }).fill('1..3');
	await page.getByRole('button', { name: 'Add an input to vary' }).click();
	const second = page.getByRole('group', { name: 'Input to vary 2 (rows)' });
	await second.getByRole('combobox', { name: 'Input' }).selectOption({ label: 'KSampler · cfg' });
	await second.getByRole('textbox', { name: 'Values of input to vary 2' }).fill('4, 6, 8, 10');
	await page.getByRole('button', { name: 'Start sweep of 12 runs' }).click();
	await expect(page).toHaveURL(/\/sweeps\//);
	const sweepUrl = page.url();

	// The pool takes six at once (two per member that is on); GPU B lacks the checkpoint, so they share A and C.
	await expect.poll(async () => (await submits(0)) + (await submits(2)), { timeout: 30_000 }).toBe(6);
	await untilHeld(server(0));
	await untilHeld(server(2));
	const sentToC = await submits(2);
	expect(sentToC).toBeGreaterThanOrEqual(2); // one running, the rest waiting behind it

	// The pool's queue view: a lane per member, with what runs there and what waits.
	await page.goto(new URL('/pools', page.url()).toString());
	const laneC = page.getByRole('region', { name: 'Lane GPU C' });
	await expect(laneC.getByRole('listitem', { name: /^Running: / })).toHaveCount(1);
	await expect(laneC.getByRole('listitem', { name: /^Waiting: / })).toHaveCount(sentToC - 1);
	await expect(page.getByRole('region', { name: 'Lane GPU B' })).toContainText('Nothing.');

	// GPU C goes away. It cannot confirm anything now, so the person says it is gone.
	await pool.stop(2);
	await expect(laneC).toContainText('GPU C is not answering', { timeout: 30_000 });
	await expect(laneC.getByRole('listitem', { name: /^Running: / })).toHaveCount(1);
	await expect(laneC.getByRole('listitem', { name: /^Waiting: / })).toHaveCount(sentToC - 1);
	expect(await hasHorizontalScroll(page)).toBe(false);
	await laneC.getByRole('button', { name: 'GPU C is gone…' }).click();
	await page.getByRole('dialog', { name: 'Treat GPU C as gone?' }).getByRole('button', { name: 'Send its waiting runs elsewhere' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'GPU C is switched off' })).toHaveText(
		`GPU C is switched off in this pool. ${sentToC - 1} run${sentToC === 2 ? '' : 's'} waiting there went to the other members. The run it was running ended there and was not sent again: run it again if you want it.`
	);
	// Those runs now wait on GPU A; none was sent to GPU B, which lacks the checkpoint.
	const laneA = page.getByRole('region', { name: 'Lane GPU A' });
	await expect(laneA.getByRole('listitem', { name: /^Waiting: / })).not.toHaveCount(0);
	expect(await submits(1)).toBe(0);

	// A reload keeps the pool's state: GPU C stays off, its lane says so.
	await page.reload();
	await expect(page.getByRole('article', { name: 'Pool Home' })).toContainText('· off');
	await expect(page.getByRole('region', { name: 'Lane GPU C' }).getByRole('heading', { name: /GPU C/ })).toContainText('off');

	// GPU A goes on: every cell but the one GPU C was running ends there; that one is lost, not sent again.
	await release(server(0));
	await page.goto(sweepUrl);
	const progress = page.getByRole('status', { name: 'Sweep progress' });
	await expect(progress).toContainText('Finished', { timeout: 60_000 });
	// Should a cell fail otherwise, the report says which runs did not succeed, and why.
	const unsuccessful = JSON.stringify(await unsuccessfulRuns(page));
	await expect(progress, `runs that did not succeed: ${unsuccessful}`).toHaveText('Finished: 11 of 12 done, 1 failed');
	expect(await submits(0)).toBe(11);

	// Sent again only because the person asks: Retry failed sends it to GPU A.
	await page.getByRole('button', { name: 'Retry failed' }).click();
	await expect(progress).toHaveText('Finished: 12 of 12 done', { timeout: 30_000 });

	// Nothing lost, nothing run twice: GPU A ran each of the 12 cells to its end exactly once; GPU C ran none to its end.
	const all = ['1', '2', '3'].flatMap((seed) => ['4', '6', '8', '10'].map((cfg) => `${seed}/${cfg}`)).sort();
	expect(completedCells(0)).toEqual(all);
	expect(completedCells(2)).toEqual([]);
	expect(await submits(0)).toBe(12);
	expect(await submits(2)).toBe(sentToC);
	expect(await submits(1)).toBe(0);
});
