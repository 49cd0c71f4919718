import { describe, expect, it } from 'vitest';
import { modelTitle } from './model-title';

describe('modelTitle', () => {
	it.each<[string | null, string, string]>([
		['Queue OpenAPI for fal-ai/flux/dev', 'fal-ai/flux/dev', 'Flux dev'],
		['fal-ai/flux/dev', 'fal-ai/flux/dev', 'Flux dev'],
		['Cog schema', 'stability-ai/sdxl', 'Sdxl'],
		['Flux 1 Pro', 'lumen/flux-1-pro', 'Flux 1 Pro'],
		['Speech 1', 'sonora/speech-1', 'Speech 1'],
		[null, 'lumen/flux-1', 'Flux 1'],
		['  ', 'quill/quill-mini', 'Quill mini'],
		['Rapid image', 'x/rapid', 'Rapid image']
	])('%s for %s reads %s', (title, id, heading) => {
		expect(modelTitle(title, id)).toBe(heading);
	});
});
