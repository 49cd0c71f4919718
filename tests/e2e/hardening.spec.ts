import { test, expect } from './fixtures';

test('a workflow whose node types, node ids and input names are Object.prototype members imports with a clear message, and every page keeps working', async ({
	page,
	openApp
}) => {
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	test.setTimeout(120_000);
	await openApp('/workflows');
	const paste = page.getByLabel('Or paste the workflow JSON');
	// `__proto__` (written as text, so it arrives as a key, as from a file) is refused with a message that says why.
	await paste.fill('{"__proto__": {"class_type": "KSampler", "inputs": {}}, "1": {"class_type": "EmptyImage", "inputs": {}}}');
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();
	await expect(page.getByRole('alert')).toContainText('uses "__proto__" as a node id or input name');

	// Every other prototype member is data: node ids, node types and input names.
	const workflow = `{
		"1": {"class_type": "EmptyImage", "inputs": {"width": 64, "height": 64, "batch_size": 1, "color": 0}},
		"constructor": {"class_type": "constructor", "inputs": {"toString": 1, "valueOf": {"hasOwnProperty": 2}}},
		"toString": {"class_type": "hasOwnProperty", "inputs": {"image": ["constructor", 0]}}
	}`;
	await paste.fill(workflow);
	await page.getByRole('button', { name: 'Import pasted JSON' }).click();

	const problems = page.getByRole('alert', { name: 'Problems in this workflow' });
	await expect(problems).toContainText('uses the node type "constructor", which this server does not have', { timeout: 15_000 });
	await expect(problems).toContainText('uses the node type "hasOwnProperty", which this server does not have');
	await expect(page.getByText('3 nodes')).toBeVisible();
	await expect(page.getByRole('region', { name: /^Node / }).first()).toBeVisible();
	const name = await page.getByRole('textbox', { name: 'Workflow name' }).inputValue();
	const url = page.url();

	// Saved, it opens again (and again) with the same message instead of breaking its page.
	await page.reload();
	await expect(problems).toContainText('uses the node type "constructor"', { timeout: 15_000 });

	const nav = page.getByRole('navigation', { name: 'Main' });
	await nav.getByRole('link', { name: 'Workflows' }).click();
	await expect(page.getByRole('article', { name: `Workflow ${name}`, exact: true })).toBeVisible();
	await nav.getByRole('link', { name: 'Runs' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await nav.getByRole('link', { name: 'Models' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await nav.getByRole('link', { name: 'Settings' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await page.goto(url);
	await expect(problems).toContainText('uses the node type "constructor"', { timeout: 15_000 });
	expect(pageErrors).toEqual([]);
});

test('a model whose schema has a self-referencing $ref opens with the JSON editor and a note', async ({ page, openApp }) => {
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	await openApp('/models/quill/quill-outline');
	const form = page.getByRole('form', { name: 'Input of quill/quill-outline' });
	await expect(form).toBeVisible({ timeout: 15_000 });
	const note = form.getByTestId('schema-note');
	await expect(note).toContainText("This model's input schema cannot be checked in the browser");
	await expect(note).toContainText('refers only to itself');
	const editor = form.getByRole('textbox', { name: /Input \(JSON\)/ });
	await expect(editor).toBeVisible();
	await editor.fill('{"prompt": "An essay about lighthouses."}');
	await expect(editor).toHaveValue(/lighthouses/);
	expect(pageErrors).toEqual([]);
});
