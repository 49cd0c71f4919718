import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { bytesSource, readWorkflowFile, workflowFromFileTexts } from '../../src/lib/workflows/protocol/files';
import { convertUiWorkflow } from '../../src/lib/workflows/rules/converter/convert';
import { fixtureDefinitions } from '../../src/lib/workflows/rules/converter/object-info.fixture';
import type { JsonObject } from '../../src/lib/core/protocol/json';
import { png, tEXt } from '../../src/lib/workflows/protocol/files/workflow-files.fixture';

const DIR = 'tests/fixtures/workflow-files/';
const FILES: Array<[string, string]> = [
	['ui-workflow.json', 'application/json'],
	['image-text.png', 'image/png'],
	['animated.webp', 'image/webp'],
	['animated.png', 'image/png'],
	['audio.flac', 'audio/flac'],
	['audio.mp3', 'audio/mpeg'],
	['video.mp4', 'video/mp4']
];

/** JSON as ComfyUI writes it into a PNG tEXt chunk: Python's json.dumps, non-ASCII escaped (the chunk is Latin-1). */
const ascii = (v: unknown) => JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

async function drop(page: Page, name: string, mime: string, bytes: Buffer): Promise<void> {
	const data = await page.evaluateHandle(
		([b64, fileName, type]) => {
			const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
			const transfer = new DataTransfer();
			transfer.items.add(new File([raw], fileName, { type }));
			return transfer;
		},
		[bytes.toString('base64'), name, mime] as const
	);
	// Anywhere on the page: the heading, not the import panel.
	await page.getByRole('heading', { name: 'Workflows', level: 1 }).dispatchEvent('drop', { dataTransfer: data });
}

/** The form as a person sees it: section headings, node titles and every value, in order. */
async function formShape(page: Page): Promise<string[]> {
	const form = page.getByRole('form', { name: 'Run form' });
	await expect(form.getByRole('region', { name: 'Node Positive prompt' })).toBeVisible();
	return form.evaluate((el) =>
		[...el.querySelectorAll('h3, input:not([type=file]):not([type=search]):not([type=checkbox]), textarea, select')].map((e) =>
			e instanceof HTMLHeadingElement ? `# ${e.textContent?.trim()}` : `${(e as HTMLInputElement).value}`
		)
	);
}

for (const [file, mime] of FILES) {
	test(`${file} dropped on the workflows page opens grouped and titled, runs, and round-trips`, async ({ page, openApp }) => {
		test.setTimeout(90_000);
		const name = file.replace(/\.[a-z0-9]+$/, '');
		await openApp('/workflows');
		await drop(page, file, mime, await readFile(DIR + file));
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

		const form = page.getByRole('form', { name: 'Run form' });
		await expect(form.getByRole('heading', { name: 'Prompts' })).toBeVisible();
		await expect(form.getByRole('region', { name: 'Node Positive prompt' })).toBeVisible();
		await expect(form.getByRole('region', { name: 'Node Negative prompt' })).toBeVisible();
		await expect(form.getByRole('region', { name: 'Node Load Checkpoint' })).toBeVisible();

		// Change a value, run it, and find the UI workflow (with the change) in the output PNG.
		await form.getByRole('checkbox', { name: 'Main inputs only' }).setChecked(false);
		await form.getByRole('region', { name: 'Node KSampler' }).getByRole('spinbutton', { name: 'steps', exact: true }).fill('7');
		await page.getByRole('button', { name: 'Run', exact: true }).click();
		await page.getByRole('link', { name: `Open run ${name}` }).click();
		await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 45_000 });
		const image = page.getByRole('img', { name: /^Output / }).first();
		await expect(image).toBeVisible();
		// Inputs used reads in the form's order, the canvas's (the Prompts group first), not by node id (KSampler is #3).
		const used = page.getByRole('region', { name: 'Inputs used' }).locator('dl').first().locator('dt');
		await expect(used.first()).toHaveText('Positive prompt · text', { timeout: 15_000 });
		await expect(used.nth(1)).toHaveText('Negative prompt · text');
		const src = (await image.getAttribute('src'))!;
		const bytes = await page.evaluate(async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), src);
		const read = await readWorkflowFile({ source: bytesSource(new Uint8Array(bytes)), name: 'output.png' }, new AbortController().signal);
		expect(read.ok).toBe(true);
		const carried = read.ok ? workflowFromFileTexts(read.texts) : {};
		const graph = JSON.parse(carried.workflow!) as JsonObject;
		const sampler = (graph['nodes'] as JsonObject[]).find((n) => n['id'] === 3)!;
		expect((sampler['widgets_values'] as unknown[])[2]).toBe(7);
		expect((graph['groups'] as JsonObject[])[0]!['title']).toBe('Prompts');
		expect(JSON.parse(carried.prompt!)['3'].inputs.steps).toBe(7);

		// Export gives the UI format back; importing it again gives the same form and prompt.
		await page.goto(page.url().replace(/\/runs\/.*$/, '/workflows'));
		const card = page.getByRole('article', { name: `Workflow ${name}`, exact: true });
		await card.getByRole('link').first().click();
		const before = await formShape(page);
		await page.goto(page.url().replace(/\/workflows\/.*$/, '/workflows'));
		const download = page.waitForEvent('download');
		await card.getByRole('button', { name: `Export ${name}`, exact: true }).click();
		const exported = await readFile((await (await download).path())!);
		const ui = JSON.parse(exported.toString('utf8')) as JsonObject;
		expect(ui['nodes']).toBeInstanceOf(Array);
		const converted = convertUiWorkflow(ui, fixtureDefinitions());
		expect(converted.ok && converted.prompt['3']!.inputs['steps']).toBe(7);

		await drop(page, 'again.json', 'application/json', exported);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('again');
		expect(await formShape(page)).toEqual(before);
	});
}

test('a file that holds no workflow is named in a clear message, and nothing is saved', async ({ page, openApp }) => {
	await openApp('/workflows');
	await drop(page, 'notes.txt', 'text/plain', Buffer.from('hello'));
	await expect(page.getByRole('alert')).toContainText('"notes.txt"');
	await expect(page.getByRole('alert')).not.toContainText('API format');
	await expect(page.getByRole('article')).toHaveCount(0);
});

test('a workflow with app mode opens on the inputs the author exposed, all inputs one tap away; paste works anywhere', async ({
	page,
	openApp
}) => {
	await openApp('/workflows');
	const ui = JSON.parse(await readFile(DIR + 'ui-workflow.json', 'utf8')) as JsonObject;
	ui['extra'] = {
		...(ui['extra'] as JsonObject),
		linearData: {
			inputs: [
				[6, 'text'],
				[3, 'steps']
			],
			outputs: [9]
		}
	};
	const text = JSON.stringify(ui);
	// A paste outside any text field imports what was copied.
	await page.getByRole('heading', { name: 'Workflows', level: 1 }).evaluate((el, copied) => {
		const data = new DataTransfer();
		data.setData('text/plain', copied);
		el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
	}, text);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pasted workflow');

	const form = page.getByRole('form', { name: 'Run form' });
	await expect(form.getByText('The inputs the author exposed (app mode).')).toBeVisible();
	await expect(form.getByRole('region', { name: /^Node / })).toHaveCount(2);
	await expect(form.getByRole('spinbutton', { name: 'steps', exact: true })).toBeVisible();
	await expect(form.getByRole('spinbutton', { name: 'cfg', exact: true })).toHaveCount(0);
	await form.getByRole('checkbox', { name: 'All inputs' }).check();
	await expect(form.getByRole('region', { name: 'Node Load Checkpoint' })).toBeVisible();
});

/** The fixture's UI workflow, changed by `change`, pasted anywhere on the workflows page. */
async function pasteUi(page: Page, change: (ui: JsonObject) => void): Promise<void> {
	const ui = JSON.parse(await readFile(DIR + 'ui-workflow.json', 'utf8')) as JsonObject;
	change(ui);
	await page.getByRole('heading', { name: 'Workflows', level: 1 }).evaluate((el, copied) => {
		const data = new DataTransfer();
		data.setData('text/plain', copied);
		el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
	}, JSON.stringify(ui));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pasted workflow');
}

const nodeOf = (ui: JsonObject, id: number) => (ui['nodes'] as JsonObject[]).find((n) => n['id'] === id)!;

test('a PrimitiveNode feeding two widgets is one field that sets both; a collapsed node is hidden unless asked', async ({
	page,
	openApp
}) => {
	test.setTimeout(90_000);
	await openApp('/workflows');
	await pasteUi(page, (ui) => {
		// Both prompts' text comes from one PrimitiveNode (links 10 and 11), as the editor saves it.
		for (const [id, link] of [
			[6, 10],
			[7, 11]
		] as const)
			(nodeOf(ui, id)['inputs'] as JsonObject[]).push({ name: 'text', type: 'STRING', widget: { name: 'text' }, link });
		(ui['nodes'] as JsonObject[]).push({
			id: 20,
			type: 'PrimitiveNode',
			title: 'Shared text',
			pos: [30, 700],
			size: [300, 80],
			flags: {},
			mode: 0,
			order: 0,
			inputs: [],
			outputs: [{ name: 'STRING', type: 'STRING', links: [10, 11], widget: { name: 'text' } }],
			properties: { 'Run widget replace on values': false },
			widgets_values: ['one text for both']
		});
		(ui['links'] as unknown[]).push([10, 20, 0, 6, 1, 'STRING'], [11, 20, 0, 7, 1, 'STRING']);
		nodeOf(ui, 5)['flags'] = { collapsed: true };
	});
	const form = page.getByRole('form', { name: 'Run form' });
	await form.getByRole('checkbox', { name: 'Main inputs only' }).setChecked(false);
	const shared = form.getByRole('textbox', { name: 'Shared text (sets 2 inputs)' });
	await expect(shared).toHaveCount(1);
	await expect(shared).toHaveValue('one text for both');
	// The second target has no field of its own (its node had only that widget).
	await expect(form.getByRole('region', { name: 'Node Negative prompt' })).toHaveCount(0);

	await expect(form.getByRole('region', { name: 'Node Empty Latent Image' })).toHaveCount(0);
	await form.getByRole('checkbox', { name: 'Show collapsed nodes' }).check();
	await expect(form.getByRole('region', { name: 'Node Empty Latent Image' })).toBeVisible();

	await shared.fill('a lighthouse, twice');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await page.getByRole('link', { name: 'Open run Pasted workflow' }).click();
	await expect(page.getByText('Done', { exact: true })).toBeVisible({ timeout: 45_000 });
	const src = (await page
		.getByRole('img', { name: /^Output / })
		.first()
		.getAttribute('src'))!;
	const bytes = await page.evaluate(async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), src);
	const read = await readWorkflowFile({ source: bytesSource(new Uint8Array(bytes)), name: 'output.png' }, new AbortController().signal);
	const sent = JSON.parse((read.ok ? workflowFromFileTexts(read.texts) : {}).prompt!) as Record<string, { inputs: JsonObject }>;
	expect([sent['6']!.inputs['text'], sent['7']!.inputs['text']]).toEqual(['a lighthouse, twice', 'a lighthouse, twice']);
	expect(sent['20']).toBeUndefined();
});

test('a model file the server lacks is listed above the form with its download, its field shown, and Run stays enabled @phone', async ({
	page,
	openApp
}, info) => {
	await openApp('/workflows');
	await pasteUi(page, (ui) => {
		nodeOf(ui, 4)['widgets_values'] = ['dreamy-v2.safetensors'];
		ui['models'] = [{ name: 'dreamy-v2.safetensors', url: 'https://models.example.com/dreamy-v2.safetensors', directory: 'checkpoints' }];
	});
	const notice = page.getByRole('alert', { name: 'What to install' });
	await expect(notice).toContainText('Model file dreamy-v2.safetensors (Load Checkpoint, ckpt_name)');
	await expect(notice.getByRole('link', { name: 'https://models.example.com/dreamy-v2.safetensors' })).toBeVisible();
	await expect(notice).toContainText('into models/checkpoints');
	await expect(notice).toContainText('You can still run it: the server decides.');
	// The field the warning names is there to change, even where "Main inputs only" hides the rest (a phone).
	if (info.project.name === 'phone') await expect(page.getByRole('checkbox', { name: 'Main inputs only' })).toBeChecked();
	await expect(page.getByRole('combobox', { name: 'ckpt name' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
	if (info.project.name === 'desk') {
		// With the warning shown, the form still has room on a desk: more than 190 px of fields above its run bar.
		const fields = await page.getByRole('form', { name: 'Run form' }).evaluate((form) => {
			const top = Math.max(0, form.getBoundingClientRect().top);
			const bar = form.querySelector('.run-bar')!.getBoundingClientRect().top;
			return Math.min(bar, innerHeight) - top;
		});
		expect(fields).toBeGreaterThan(190);
	}
});

test('a model file the server lacks offers the closest file it has, one tap away, and the warning goes once chosen', async ({
	page,
	openApp
}) => {
	await openApp('/workflows');
	await pasteUi(page, (ui) => {
		nodeOf(ui, 4)['widgets_values'] = ['SD1.5/v1-5-pruned-emaonly.safetensors'];
	});
	const notice = page.getByRole('alert', { name: 'What to install' });
	await expect(notice).toContainText('Model file SD1.5/v1-5-pruned-emaonly.safetensors (Load Checkpoint, ckpt_name)');
	await notice.getByRole('button', { name: /^Use v1-5-pruned-emaonly.*\.safetensors for Load Checkpoint ckpt_name$/ }).click();
	await expect(notice).toBeHidden();
	await expect(page.getByRole('combobox', { name: 'ckpt name' }).locator('option:checked')).toHaveText(/^v1-5-pruned-emaonly/);
});

test('a file whose node pack the server lacks names the pack above the form, and Run stays off with the reason', async ({
	page,
	openApp
}) => {
	await openApp('/workflows');
	const ui = JSON.parse(await readFile(DIR + 'ui-workflow.json', 'utf8')) as JsonObject;
	const prompt = JSON.parse(await readFile(DIR + 'api-workflow.json', 'utf8')) as Record<string, JsonObject>;
	Object.assign(nodeOf(ui, 8), { type: 'FancyDecode', properties: { cnr_id: 'comfyui-fancy-pack' } });
	prompt['8']!['class_type'] = 'FancyDecode';
	const file = png(tEXt('prompt', ascii(prompt)), tEXt('workflow', ascii(ui)));
	await drop(page, 'fancy.png', 'image/png', Buffer.from(file));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('fancy');
	const notice = page.getByRole('alert', { name: 'What to install' });
	await expect(notice).toContainText('Node type FancyDecode: from the node pack "comfyui-fancy-pack": install it on this server');
	await expect(notice).not.toContainText('You can still run it');
	await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
	await expect(page.getByText('Fix the problems listed above first.')).toBeVisible();
});

test('a dropped PNG whose workflow carries app mode opens on the inputs the author exposed', async ({ page, openApp }) => {
	await openApp('/workflows');
	const ui = JSON.parse(await readFile(DIR + 'ui-workflow.json', 'utf8')) as JsonObject;
	const prompt = JSON.parse(await readFile(DIR + 'api-workflow.json', 'utf8')) as JsonObject;
	ui['extra'] = { ...(ui['extra'] as JsonObject), linearData: { inputs: [[6, 'text']], outputs: [9] } };
	await drop(page, 'app-mode.png', 'image/png', Buffer.from(png(tEXt('prompt', ascii(prompt)), tEXt('workflow', ascii(ui)))));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('app-mode');
	const form = page.getByRole('form', { name: 'Run form' });
	await expect(form.getByText('The inputs the author exposed (app mode).')).toBeVisible();
	await expect(form.getByRole('region', { name: /^Node / })).toHaveCount(1);
	await expect(form.getByRole('region', { name: 'Node Positive prompt' })).toBeVisible();
	await form.getByRole('checkbox', { name: 'All inputs' }).check();
	await expect(form.getByRole('region', { name: 'Node KSampler' })).toBeVisible();
});

test('a FLOAT takes 3.48 with step 0.1 and round 0.01, and a value the form refuses is named beside Run and brought into view', async ({
	page,
	openApp
}) => {
	await openApp('/workflows');
	await pasteUi(page, () => {});
	const form = page.getByRole('form', { name: 'Run form' });
	await form.getByRole('checkbox', { name: 'Main inputs only' }).setChecked(false);
	const sampler = form.getByRole('region', { name: 'Node KSampler' });
	await sampler.getByRole('spinbutton', { name: 'cfg', exact: true }).fill('3.48');
	await sampler.getByRole('spinbutton', { name: 'steps', exact: true }).fill('0');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	const summary = page.getByRole('alert', { name: 'Problems with the input' });
	await expect(summary).toContainText('KSampler · steps: At least 1.');
	await expect(summary).not.toContainText('cfg');
	await expect(sampler.getByRole('spinbutton', { name: 'steps', exact: true })).toBeFocused();

	await sampler.getByRole('spinbutton', { name: 'steps', exact: true }).fill('12');
	await page.getByRole('button', { name: 'Run', exact: true }).click();
	await expect(page.getByRole('link', { name: 'Open run Pasted workflow' })).toBeVisible();
	await expect(summary).toBeHidden();
	await expect(sampler.getByRole('spinbutton', { name: 'cfg', exact: true })).toHaveValue('3.48');
});
