import { describe, expect, it } from 'vitest';
import { assetName } from './asset-names';

describe('assetName', () => {
	it.each([
		['video.url', 'video', 'Video'],
		['last_frame.url', 'image', 'Last frame'],
		['images.0.url', 'image', 'Image 1'],
		['images.1.url', 'image', 'Image 2'],
		['audio_file.url', 'audio', 'Audio file'],
		['output', 'image', 'Output'],
		['output.2', 'image', 'Output 3'],
		['0', 'image', 'Image 1'],
		['', 'image', 'Image'],
		['url', 'file', 'File'],
		['data.outputs.0.mask.url', 'image', 'Mask'],
		['sampleRate', 'audio', 'Sample rate'],
		['glasses.0', 'image', 'Glasses 1']
	])('%s (%s) reads %s', (path, kind, name) => {
		expect(assetName(path, kind)).toBe(name);
	});
});
