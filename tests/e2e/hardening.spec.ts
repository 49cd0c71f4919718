import { test, expect } from './fixtures';
import { crc32, deflateSync } from 'node:zlib';

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
	const name = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
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

/** A PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(4);
	head.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([head, body, crc]);
}

/** A 1x1 PNG whose zTXt "workflow" chunk inflates to 256 MiB of spaces (about 250 KB on disk). */
function decompressionBombPng(): Buffer {
	const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
	const bomb = deflateSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });
	const ztxt = Buffer.concat([Buffer.from('workflow\0\0', 'latin1'), bomb]);
	const pixels = deflateSync(Buffer.from([0, 0]));
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', ihdr),
		pngChunk('zTXt', ztxt),
		pngChunk('IDAT', pixels),
		pngChunk('IEND', Buffer.alloc(0))
	]);
}

test('a decompression-bomb PNG is refused with a message naming the file, without inflating past the cap', async ({ page, openApp }) => {
	await openApp('/workflows');
	// Count every byte any DecompressionStream hands out in the worker that reads files.
	const worker = await expect
		.poll(() => page.workers().length)
		.toBeGreaterThan(0)
		.then(() => page.workers()[0]!);
	await worker.evaluate(() => {
		const scope = globalThis as unknown as { inflated: number; DecompressionStream: typeof DecompressionStream };
		scope.inflated = 0;
		const Original = scope.DecompressionStream;
		scope.DecompressionStream = class extends Original {
			constructor(format: CompressionFormat) {
				super(format);
				const counted = this.readable.pipeThrough(
					new TransformStream<Uint8Array, Uint8Array>({
						transform(chunk, controller) {
							scope.inflated += chunk.byteLength;
							controller.enqueue(chunk);
						}
					})
				);
				Object.defineProperty(this, 'readable', { value: counted });
			}
		};
	});

	await page.locator('#import-file').setInputFiles({ name: 'bomb.png', mimeType: 'image/png', buffer: decompressionBombPng() });
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('"bomb.png"', { timeout: 15_000 });
	await expect(alert).toContainText('expands to more than 8 MB');
	const inflated = await worker.evaluate(() => (globalThis as unknown as { inflated: number }).inflated);
	expect(inflated).toBeGreaterThan(8 * 1024 * 1024);
	expect(inflated).toBeLessThan(12 * 1024 * 1024);
	await expect(page.getByRole('article')).toHaveCount(0);
});
