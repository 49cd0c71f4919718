import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaField } from '$lib/fields/rules/field-model';
import { bridge, countObjectUrls } from '../../core/state/testing/fake-bridge';
import { WorkflowEditor } from './workflow-editor.svelte';
import { WorkflowRunsStore } from './workflow-runs.svelte';

vi.mock('$lib/core/state/worker-bridge.svelte', () => import('../../core/state/testing/fake-bridge'));

const imageField: MediaField = {
	kind: 'media',
	id: '10.image',
	path: ['10', 'image'],
	label: 'image',
	required: true,
	advanced: false,
	nullable: false,
	accept: 'image',
	transport: 'upload'
} as MediaField;

/** What the workflow page makes when it opens and disposes of when it goes. */
function visitWorkflowPage(): { editor: WorkflowEditor; runs: WorkflowRunsStore; leave: () => void } {
	const editor = new WorkflowEditor(() => 'p');
	const runs = new WorkflowRunsStore();
	runs.listen();
	return {
		editor,
		runs,
		leave: () => {
			editor.dispose();
			runs.dispose();
		}
	};
}

describe('the workflow page', () => {
	let urls: ReturnType<typeof countObjectUrls>;

	beforeEach(() => {
		bridge.reset();
		urls = countObjectUrls(vi);
		let n = 0;
		bridge.answer('uploadInput', () => ({ ok: true, value: { name: `picked-${++n}.png`, subfolder: '', type: 'input' } }));
	});

	afterEach(() => vi.restoreAllMocks());

	it('adds no listener per visit', () => {
		for (let i = 0; i < 10; i++) visitWorkflowPage().leave();
		expect(bridge.listeners.size).toBe(0);
	});

	it('revokes the previews of picked files and of running jobs when it goes', async () => {
		const page = visitWorkflowPage();
		expect(bridge.listeners.size).toBe(2);
		const name = await page.editor.upload(imageField, new File(['png'], 'cat.png', { type: 'image/png' }));
		expect(page.editor.previews.get(name!)).toMatch(/^blob:/);
		// A mask painted on it shows the picture it was painted on: the mask's own URL is not kept.
		await page.editor.upload(imageField, new File(['mask'], 'mask.png', { type: 'image/png' }), name);
		bridge.emit({ type: 'preview', runId: 'r1', nodeId: '3', mime: 'image/jpeg', bytes: new ArrayBuffer(2) });
		expect(urls.live.size).toBe(2);

		page.leave();
		expect(bridge.listeners.size).toBe(0);
		expect(urls.live).toEqual(new Set());
	});

	it('revokes the preview of a file whose upload ends after the page went', async () => {
		let finish: (value: unknown) => void = () => {};
		bridge.answer('uploadInput', () => new Promise((resolve) => (finish = resolve)));
		const page = visitWorkflowPage();
		const uploading = page.editor.upload(imageField, new File(['png'], 'cat.png'));
		await Promise.resolve();
		page.leave();
		finish({ ok: true, value: { name: 'cat.png', subfolder: '', type: 'input' } });
		expect(await uploading).toBeUndefined();
		expect(urls.made()).toBe(1);
		expect(urls.live).toEqual(new Set());
	});

	it('ends the sending line with the answer, even when the last progress event comes after it', async () => {
		let finish: (value: unknown) => void = () => {};
		bridge.answer('uploadInput', () => new Promise((resolve) => (finish = resolve)));
		const page = visitWorkflowPage();
		const uploading = page.editor.upload(imageField, new File(['png'], 'cat.png'));
		bridge.emit({ type: 'upload-progress', uploadId: imageField.id, phase: 'checking', loaded: 0, total: 3 });
		expect(page.editor.uploads.get(imageField.id)?.phase).toBe('checking');
		// The answer arrives first: progress and answers travel on different ports.
		finish({ ok: true, value: { name: 'cat.png', subfolder: '', type: 'input' } });
		expect(await uploading).toBe('cat.png');
		bridge.emit({ type: 'upload-progress', uploadId: imageField.id, phase: 'done', loaded: 3, total: 3 });
		expect(page.editor.uploads.has(imageField.id)).toBe(false);
		page.leave();
	});
});
