import { describe, expect, it } from 'vitest';
import { ok, fail, appError } from '../../core/protocol/errors';
import { Operations } from '../../core/worker/operations';
import { newWorkflowRun, type WorkflowRun } from '../rules/run-record';
import { hashBytes, OUTPUT, PICTURE } from '../rules/bundle/bundle.fixture';
import { RunBundles, type BundleSources } from './run-bundles';

function finishedRun(): WorkflowRun {
	const run = newWorkflowRun({
		id: 'r1',
		profileId: 'p',
		title: 'Image edit',
		workflowId: null,
		prompt: {
			'1': { class_type: 'LoadImage', inputs: { image: 'cat.png' } },
			'2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'ComfyUI' } }
		},
		seeds: {},
		partner: false,
		now: 1
	});
	return {
		...run,
		status: 'succeeded',
		outputs: [{ nodeId: '2', kind: 'image', ref: { filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' } }]
	} as WorkflowRun;
}

function sources(version: string | null): BundleSources {
	return {
		run: async () => finishedRun(),
		ui: async () => null,
		inputImage: async () => ok(new Blob([PICTURE], { type: 'image/png' })),
		output: async () => ok(new Blob([OUTPUT], { type: 'image/png' })),
		server: async () => ({ surface: 'local-comfyui', version })
	};
}

describe('run bundles in the worker', () => {
	it("makes a bundle with the server's version, and opens it again with each file as a Blob", async () => {
		const bundles = new RunBundles(sources('0.3.64'), new Operations()).api();
		const made = await bundles.exportBundle({ runId: 'r1' });
		if (!made.ok) throw new Error(made.error.message);
		expect(made.value.server).toEqual({ surface: 'local-comfyui', version: '0.3.64' });
		expect(made.value.fileName).toBe('Image edit.runboard.zip');
		const opened = await bundles.openBundle({ file: made.value.blob });
		if (!opened.ok) throw new Error(opened.error.message);
		expect(opened.value.manifest.server.version).toBe('0.3.64');
		const input = opened.value.manifest.inputs[0]!;
		expect(input.blake3).toBe(await hashBytes(PICTURE));
		const blob = opened.value.files.get(input.path)!;
		expect(blob.type).toBe('image/png');
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PICTURE);
	});

	it('writes an unknown version as null, and leaves out an input the server no longer has', async () => {
		const bundles = new RunBundles(
			{ ...sources(null), inputImage: async () => fail(appError('not-found', 'gone')) },
			new Operations()
		).api();
		const made = await bundles.exportBundle({ runId: 'r1' });
		expect(made.ok && made.value.server.version).toBeNull();
		expect(made.ok && made.value.missingInputs).toEqual(['cat.png']);
	});

	it('stops when its operation is cancelled, and says so', async () => {
		const operations = new Operations();
		operations.cancel('op-1');
		const bundles = new RunBundles(sources('0.3.64'), operations).api();
		expect(await bundles.exportBundle({ runId: 'r1', operationId: 'op-1' })).toEqual({
			ok: false,
			error: { kind: 'cancelled', message: 'Making the bundle was stopped.' }
		});
		const made = await new RunBundles(sources('0.3.64'), new Operations()).api().exportBundle({ runId: 'r1' });
		operations.cancel('op-2');
		const opened = await bundles.openBundle({ file: made.ok ? made.value.blob : new Blob([]), operationId: 'op-2' });
		expect(opened).toEqual({ ok: false, error: { kind: 'cancelled', message: 'Opening the bundle was stopped.' } });
	});

	it('refuses a file that is not a bundle in one line', async () => {
		const bundles = new RunBundles(sources('0.3.64'), new Operations()).api();
		const opened = await bundles.openBundle({ file: new Blob(['hello']) });
		expect(opened).toEqual({
			ok: false,
			error: { kind: 'not-a-bundle', message: 'This is not a zip file: it has no zip directory at its end.' }
		});
	});
});
