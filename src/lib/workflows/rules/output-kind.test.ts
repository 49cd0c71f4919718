import { describe, expect, it } from 'vitest';
import type { OutputKind } from '../../core/protocol/workflow-run';
import { shownKind } from './output-kind';

describe('how a browser shows a workflow output', () => {
	it.each<[string, OutputKind, string, OutputKind]>([
		['an animated WebP listed as a video is a picture', 'video', 'animation_00001_.webp', 'image'],
		['an animated GIF listed as a video is a picture', 'video', 'ComfyUI_00001_.GIF', 'image'],
		['an animated PNG listed as a video is a picture', 'video', 'ComfyUI_00001_.png', 'image'],
		['a WebM is a video', 'video', 'ComfyUI_00001_.webm', 'video'],
		['an MP4 is a video', 'video', 'video/ComfyUI_00001_.mp4', 'video'],
		['a picture stays a picture', 'image', 'ComfyUI_00001_.png', 'image'],
		['a sound stays a sound', 'audio', 'ComfyUI_00001_.flac', 'audio'],
		['a file stays a file, whatever its name', 'file', 'latent.webp', 'file']
	])('%s', (_name, kind, name, shown) => {
		expect(shownKind(kind, name)).toBe(shown);
	});
});
