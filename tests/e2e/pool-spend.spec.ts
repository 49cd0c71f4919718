/**
 * A pool's spend cap (#31): a local server held busy and a paid cloud member (managed v2, and v1 in
 * the same table) at a price per run the person sets. The first run waits locally while the local
 * wait is under the threshold; past it the cloud takes runs until the cap, then the next run is not
 * sent there and its page says why in the cap's numbers. The emulator's counters say how many runs
 * the cloud was sent; a reload keeps what was counted; the person resets it. Each run carries a
 * picture picked on the local server: the cloud runs it, so the picture reached the cloud.
 * A run waiting on the (v1) cloud that the person moves to the local server from the pool's queue
 * gives its price back, once: the card and the queue view, which say the count in the same words,
 * both fall by the price and stay there after a reload. A run whose send is cut off before it reaches
 * the cloud (its answer lost) stays counted until polling reads it "Never accepted", then gives its
 * price back and goes to the local server.
 */
import sharp from 'sharp';
import type { Page, Route } from '@playwright/test';
import { createEmulatorPool, type EmulatorPool } from '../../emulator/pool';
import type { Emulator } from '../../emulator/index';
import { expect, hasHorizontalScroll, openExample, test, type Control } from './fixtures';
import { holdNode, release, untilHeld } from './holds';
import { addLocalServer, runOn, runOnce, runTiles } from './pool-helpers';
import { addProfile } from './v2-helpers';

const LOCAL = 'GPU';
const POOL = 'Burst';
const PRICE = 15;
/** Room for exactly two runs at the price. */
const CAP = 30;

let local: EmulatorPool;

test.beforeEach(async () => {
	local = await createEmulatorPool([{ name: LOCAL, scenario: 'comfyui-local', shape: { stepMs: 2 } }]);
});
test.afterEach(() => local.close());

const localServer = (): Emulator => local.servers[0]!.emulator;

/** Jobs the local server was sent (ComfyUI's submit route, with or without `/api`), read in-process. */
function localSubmits(): number {
	const { requests } = localServer().state.counters;
	return (requests['POST /api/prompt'] ?? 0) + (requests['POST /prompt'] ?? 0);
}

/** A Cloud profile on the emulator's managed service, which offers v2; not made the one in use. */
const addCloudV2 = (page: Page, emulator: Emulator) => addProfile(page, emulator, 'Cloud', { use: false });

const CLOUDS = [
	{
		surface: 'managed v2',
		member: 'Cloud',
		routes: { submit: 'POST /api/v2/jobs', fromHash: 'POST /api/v2/assets/from-hash', upload: 'POST /api/v2/assets' },
		add: addCloudV2
	},
	{
		// The demo profile is a Cloud profile that stays on v1 (the emulator's v1 routes).
		surface: 'v1',
		member: 'Demo (local emulator)',
		routes: { submit: 'POST /api/prompt', fromHash: 'POST /api/assets/from-hash', upload: 'POST /api/upload/image' },
		add: async () => {}
	}
] as const;

/** How many requests of `route` the cloud (the test's own emulator) was sent. */
async function cloudRequests(control: Control, route: string): Promise<number> {
	return (await control.counters()).requests[route] ?? 0;
}

/** Picks a picture for the open Image edit's Load Image: it is sent to the profile in use (the local server). */
async function pickPicture(page: Page): Promise<void> {
	const buffer = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 90, b: 30 } } })
		.png()
		.toBuffer();
	const node = page.getByRole('region', { name: 'Node Load Image' });
	await node.locator('input[type=file]').first().setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer });
	await expect(node.getByLabel(/^image: (image|file name) on the service$/)).toHaveValue(/cat\.png$/);
}

/** The pool's form filled for the local server and `cloudMember`, paid, under the cap: all but the cloud's price. */
async function fillPool(page: Page, cloudMember: string) {
	await page.goto(new URL('/pools', page.url()).toString());
	await page.getByRole('button', { name: 'Add pool' }).click();
	const form = page.getByRole('form', { name: 'New pool' });
	await form.getByLabel('Name').fill(POOL);
	await form
		.getByRole('group', { name: `Member ${LOCAL}` })
		.getByRole('checkbox', { name: LOCAL })
		.check();
	const member = form.getByRole('group', { name: `Member ${cloudMember}` });
	await member.getByRole('checkbox', { name: cloudMember }).check();
	await member.getByRole('checkbox', { name: 'Paid' }).check();
	await form.getByLabel('Wait before paid members help (seconds)').fill('45');
	await form.getByLabel('Spend cap (cents)').fill(String(CAP));
	return { form, member };
}

for (const cloud of CLOUDS) {
	test(`a paid cloud member (${cloud.surface}) helps past the threshold only up to the spend cap, says why when it does not, and the count outlives a reload @phone`, async ({
		page,
		openApp,
		emulator,
		control
	}) => {
		test.setTimeout(120_000);
		const phone = test.info().project.name === 'phone';
		await openApp('/settings');
		await addLocalServer(page, LOCAL, localServer());
		await cloud.add(page, emulator);
		// The local server is the profile in use: the form's picture is sent there when picked.
		await page.getByRole('button', { name: `Use ${LOCAL}` }).click();
		await expect(page.getByRole('link', { name: new RegExp(`Connection: ${LOCAL}, Live`) })).toBeVisible();

		// The pool: the local server and the cloud, paid. A paid member without a price is refused, saying so.
		const { form, member } = await fillPool(page, cloud.member);
		await form.getByRole('button', { name: 'Save pool' }).click();
		const price = member.getByLabel('Price per run (cents)');
		await expect(price).toHaveAccessibleDescription(
			'A paid member needs its price per run, in whole cents: the pool counts it against the spend cap.'
		);
		await price.fill(String(PRICE));
		await form.getByRole('button', { name: 'Save pool' }).click();
		const card = page.getByRole('article', { name: `Pool ${POOL}` });
		await expect(card).toContainText(`paid, ${PRICE} cents a run`);
		await expect(card).toContainText(`about 0 cents committed (your price × runs sent) of a ${CAP}-cent spend cap`);
		expect(await hasHorizontalScroll(page)).toBe(false);

		// The local server's last step stays busy until released: its queue only grows.
		await holdNode(localServer(), { classType: 'ImageInvert' });
		await openExample(page, 'Image edit');
		await pickPicture(page);
		await runOn(page, phone, POOL, null);

		// The form shows the run just sent in place of the one before: wait for its own link, so a check never reads the previous run's.
		const link = () => runTiles(page).first().getByRole('link', { name: 'Open run Image edit' });
		const send = async () => {
			const before = (await runTiles(page).count()) > 0 ? await link().getAttribute('href') : null;
			await runOnce(page, phone);
			await expect(link()).toHaveAttribute('href', /^\/runs\//);
			if (before !== null) await expect(link()).not.toHaveAttribute('href', before);
		};

		// Under the threshold (nothing ahead locally): the run waits there, the cloud is spared.
		await send();
		await expect(runTiles(page).first()).toContainText(`Sent to ${LOCAL} by pool ${POOL}`);
		await untilHeld(localServer());

		// Past it (a run ahead locally): the cloud takes runs, each counted at the price, until the cap. Each
		// one runs there to the end: the cloud refuses a Load Image of a picture it does not have.
		for (let i = 1; i <= CAP / PRICE; i++) {
			await send();
			await expect(runTiles(page).first()).toContainText(`Sent to ${cloud.member} by pool ${POOL}`);
			await expect(runTiles(page).first()).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
		}

		// At the cap: the next run waits locally instead, and its page says why in the cap's numbers.
		await send();
		const capped = runTiles(page).first();
		await expect(capped).toContainText(`Sent to ${LOCAL} by pool ${POOL}`);
		await capped.getByRole('link', { name: 'Open run Image edit' }).click();
		await page.getByText('Why not the others').click();
		await expect(page.getByRole('listitem').filter({ hasText: 'spend cap' })).toContainText(
			`Not sent to ${cloud.member}: spend cap: ${CAP} of ${CAP} cents committed, a run here is ${PRICE}. Raise the cap, or reset what is counted, on the Pools page.`
		);

		// The servers' own counters: the cloud was sent exactly the runs the cap allowed, the rest went local.
		expect(await cloudRequests(control, cloud.routes.submit)).toBe(CAP / PRICE);
		expect(localSubmits()).toBe(2);
		// The picture reached the cloud once: asked by hash for each run, its bytes uploaded for the first only.
		expect(await cloudRequests(control, cloud.routes.fromHash)).toBe(CAP / PRICE);
		expect(await cloudRequests(control, cloud.routes.upload)).toBe(1);

		// What was counted is the pool's, on the device: a reload keeps it.
		await page.goto(new URL('/pools', page.url()).toString());
		await expect(card).toContainText(`about ${CAP} cents committed (your price × runs sent) of a ${CAP}-cent spend cap`);
		await page.reload();
		await expect(card).toContainText(`about ${CAP} cents committed`);

		// The person resets the count (after confirming): the cloud may help again.
		await card.getByRole('button', { name: `Reset what is counted for pool ${POOL}` }).click();
		const dialog = page.getByRole('dialog', { name: `Reset what pool ${POOL} counted?` });
		await expect(dialog).toContainText(`forgets the ${CAP} cents it counted`);
		await dialog.getByRole('button', { name: 'Reset to 0' }).click();
		await expect(card).toContainText('about 0 cents committed');
		await release(localServer());
	});
}

/** The demo profile: a Cloud profile on the emulator's v1 routes. */
const CLOUD_V1 = 'Demo (local emulator)';

/** The local server in use, and a pool of it and the v1 cloud at the price a run: the pool's card. */
async function localAndV1CloudPool(page: Page, openApp: (path?: string) => Promise<void>) {
	await openApp('/settings');
	await addLocalServer(page, LOCAL, localServer());
	await page.getByRole('button', { name: `Use ${LOCAL}` }).click();
	await expect(page.getByRole('link', { name: new RegExp(`Connection: ${LOCAL}, Live`) })).toBeVisible();
	const { form, member } = await fillPool(page, CLOUD_V1);
	await member.getByLabel('Price per run (cents)').fill(String(PRICE));
	await form.getByRole('button', { name: 'Save pool' }).click();
	return page.getByRole('article', { name: `Pool ${POOL}` });
}

test('a run waiting on the cloud, moved to the local server from the pool’s queue, gives its price back once; the queue view says what is counted as the card does @phone', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	// The v1 cloud lists the jobs waiting in its queue (the managed v2 service lists none, so its lane has nothing to move).
	test.setTimeout(120_000);
	const phone = test.info().project.name === 'phone';
	const card = await localAndV1CloudPool(page, openApp);
	const queue = page.getByRole('region', { name: `Queue of pool ${POOL}` });
	// The queue view says what is counted in the card's own words.
	const counted = (cents: number) =>
		`Paid members: about ${cents} cents committed (your price × runs sent) of a ${CAP}-cent spend cap, counted since`;
	await expect(card).toContainText(counted(0));
	await expect(queue).toContainText(counted(0));
	await expect(queue).toContainText('Not a charge the service confirmed.');

	// Two runs pinned to the cloud: the first is held running there, the second waits behind it. Both are counted.
	await holdNode(emulator, { classType: 'KSampler' });
	await openExample(page, 'Text to image');
	await runOn(page, phone, POOL, CLOUD_V1);
	await runOnce(page, phone);
	await untilHeld(emulator);
	await runOnce(page, phone);
	await expect.poll(() => cloudRequests(control, 'POST /api/prompt')).toBe(2);

	await page.goto(new URL('/pools', page.url()).toString());
	await expect(card).toContainText(counted(CAP));
	await expect(queue).toContainText(counted(CAP));
	expect(await hasHorizontalScroll(page)).toBe(false);

	// The person moves the waiting one to the local server: the cloud confirms its cancel, so its price is given back.
	const waiting = queue.getByRole('region', { name: `Lane ${CLOUD_V1}` }).getByRole('listitem', { name: /^Waiting: / });
	await expect(waiting).toHaveCount(1, { timeout: 30_000 });
	await waiting.getByRole('combobox', { name: 'Move Text to image to' }).selectOption({ label: LOCAL });
	await waiting.getByRole('button', { name: 'Move Text to image' }).click();
	await expect(page.getByRole('status').filter({ hasText: `Moved to ${LOCAL}` })).toBeVisible({ timeout: 30_000 });
	await expect(card).toContainText(counted(PRICE));
	await expect(queue).toContainText(counted(PRICE));
	await expect.poll(localSubmits).toBe(1);

	// Given back once: the run's later word (it ended here) and a reload take nothing more off.
	await page.reload();
	await expect(card).toContainText(counted(PRICE));
	await expect(queue).toContainText(counted(PRICE));
	expect(await hasHorizontalScroll(page)).toBe(false);
	await release(emulator);
});

test('a run whose send never reached the cloud reads "Never accepted" and gives its price back; the local server runs it instead @phone', async ({
	page,
	openApp,
	emulator,
	control
}) => {
	test.setTimeout(150_000);
	const phone = test.info().project.name === 'phone';
	const card = await localAndV1CloudPool(page, openApp);
	await expect(card).toContainText('about 0 cents committed');

	// The cloud is cut off from the moment the run is sent there (a connection reset, then nothing answers:
	// a network failure, not a refusal): the answer is lost, and the cloud never had the job.
	const cloud = new URL(emulator.urls.workflow).origin;
	let dropped = 0;
	const cutOff = async (route: Route) => {
		if (route.request().method() === 'POST' && new URL(route.request().url()).pathname === '/api/prompt') dropped++;
		if (dropped === 0) return route.fallback();
		await route.abort('connectionreset');
	};
	const toCloud = (url: URL) => url.origin === cloud;
	await page.context().route(toCloud, cutOff);
	await openExample(page, 'Text to image');
	await runOn(page, phone, POOL, CLOUD_V1);
	await runOnce(page, phone);
	await expect(page.getByText('The run is kept and will be checked when the service answers.')).toBeVisible();
	expect(dropped).toBe(1);
	// The cloud answers again: the run is read there, and it has no such job.
	await page.context().unroute(toCloud, cutOff);
	await page.goto(new URL('/pools', page.url()).toString());
	await expect(card).toContainText(`about ${PRICE} cents committed`);

	// Polling finds the cloud has no such job (after the submit's own grace): "Never accepted", its price given back,
	// and the run goes to the local server.
	await expect(card).toContainText('about 0 cents committed', { timeout: 90_000 });
	await expect.poll(localSubmits, { timeout: 30_000 }).toBe(1);
	expect(await cloudRequests(control, 'POST /api/prompt')).toBe(0);
	await page.reload();
	await expect(card).toContainText('about 0 cents committed');
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('link', { name: /^Run Text to image, succeeded: .* moved from Demo \(local emulator\)$/ })).toHaveCount(1, {
		timeout: 15_000
	});
	await page.getByRole('link', { name: /^Run Text to image, lost: / }).click();
	await expect(page.getByRole('heading', { name: 'Never accepted' })).toBeVisible();
});
