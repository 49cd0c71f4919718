import { describe, expect, it } from 'vitest';
import { outputDownloadName, outputName } from './output-name';

describe('an output download file name', () => {
	it('a v2 output named by the server is cleaned like every other download', () => {
		const ref = { filename: 'asset_01HZ', label: '../../.ssh/authorized_keys\u202Egnp.png' };
		expect(outputName(ref)).toBe(ref.label);
		expect(outputDownloadName(ref)).toBe('ssh_authorized_keys_gnp.png');
	});

	it('a v1 output keeps its plain name', () => {
		expect(outputDownloadName({ filename: 'ComfyUI_00001_.png' })).toBe('ComfyUI_00001_.png');
	});

	it('an output whose name cleans to nothing is called "output"', () => {
		expect(outputDownloadName({ filename: 'x', label: '///' })).toBe('output');
	});
});
