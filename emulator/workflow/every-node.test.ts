import { describe, expect, it } from 'vitest';
import { CORE_NODES } from './core-nodes.generated';
import { executorFor } from './executor-for';
import type { NodeContext } from './executors';
import type { InputSpec } from './node-definition';
import { nodeDefinitions } from './nodes';

/** A value of a link type as an upstream node would hand it on: small, so every node runs in milliseconds. */
function linked(type: string): unknown {
	const frame = { width: 16, height: 16, data: Buffer.alloc(16 * 16 * 3, 90) };
	switch (type) {
		case 'IMAGE':
			return { kind: 'image', frames: [frame] };
		case 'MASK':
			return { kind: 'mask', frames: [{ width: 16, height: 16, data: Buffer.alloc(16 * 16) }] };
		case 'LATENT':
			return { kind: 'latent', width: 16, height: 16, batch: 1 };
		case 'AUDIO':
			return { kind: 'audio', sampleRate: 8000, samples: new Float32Array(800) };
		case 'CONDITIONING':
			return { kind: 'conditioning', text: 'a test' };
		default:
			return { kind: type.toLowerCase(), node: 'test' };
	}
}

/** The value a user leaves in a widget: its default, else the first option or the minimum. */
function widget(spec: InputSpec): unknown {
	const [type, options = {}] = spec;
	if (Array.isArray(type)) return type[0];
	if ('default' in options) return options['default'];
	if (type === 'COMBO') return (options['options'] as unknown[] | undefined)?.[0];
	if (type === 'INT' || type === 'FLOAT') return typeof options['min'] === 'number' ? options['min'] : 0;
	if (type === 'BOOLEAN') return false;
	if (type === 'STRING') return 'text';
	return linked(type);
}

const ctx = (saved: string[]): NodeContext => ({
	nodeId: '1',
	creditsExhausted: false,
	modelsUnavailable: false,
	partnerKeyValid: true,
	prompt: {},
	extraPngInfo: undefined,
	stepMs: 0,
	sleep: async () => undefined,
	checkpoint: () => undefined,
	progress: async () => undefined,
	text: () => undefined,
	loadInput: async () => {
		throw new Error('no input files in this test');
	},
	saveFile: async (type, prefix, extension) => {
		saved.push(`${prefix}.${extension}`);
		return { filename: `${prefix}.${extension}`, subfolder: '', type };
	}
});

/** Nodes that read an uploaded input file: they need one, so they run in the graph tests, not here. */
const READS_INPUT_FILES = new Set([
	'LoadImage',
	'LoadImageMask',
	'LoadAudio',
	'LoadVideo',
	'Load3D',
	'Load3DAnimation',
	'LoadLatent',
	'LoadImageSetFromFolderNode',
	'LoadImageTextSetFromFolderNode',
	'WebcamCapture'
]);

describe('every core node runs', () => {
	const definitions = nodeDefinitions([]);
	const names = Object.keys(CORE_NODES).filter((name) => !READS_INPUT_FILES.has(name));

	it('with its defaults and small linked inputs, giving one value per output (output nodes: a file or nothing)', async () => {
		const failures: string[] = [];
		let files = 0;
		for (const name of names) {
			const definition = definitions[name]!;
			const inputs = Object.create(null) as Record<string, unknown>;
			for (const [input, spec] of Object.entries(definition.input.required)) inputs[input] = widget(spec);
			const saved: string[] = [];
			try {
				const result = await executorFor(name)!(inputs, ctx(saved));
				if (result.outputs.length !== definition.output.length) failures.push(`${name}: ${result.outputs.length} outputs`);
				if (!definition.output_node && result.outputs.some((o) => o === undefined)) failures.push(`${name}: an undefined output`);
				files += saved.length;
			} catch (error) {
				failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		expect(failures).toEqual([]);
		expect(names.length).toBeGreaterThan(360);
		expect(files).toBeGreaterThan(10);
	});
});
