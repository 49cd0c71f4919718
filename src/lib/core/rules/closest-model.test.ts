import { describe, expect, it } from 'vitest';
import { closestModelFile, nameLikeness } from './closest-model';

const checkpoints = [
	'SDXL/sd_xl_base_1.0.safetensors',
	'v1-5-pruned-emaonly-fp16.safetensors',
	'flux1-dev-fp8.safetensors',
	'sd3.5_medium.safetensors'
];

describe('closestModelFile', () => {
	it('finds the same file in another folder of the list, either way round', () => {
		expect(closestModelFile('sd_xl_base_1.0.safetensors', checkpoints)).toBe('SDXL/sd_xl_base_1.0.safetensors');
		expect(closestModelFile('SDXL\\sd_xl_base_1.0.safetensors', ['sd_xl_base_1.0.safetensors'])).toBe('sd_xl_base_1.0.safetensors');
	});
	it('otherwise offers the most alike name', () => {
		expect(closestModelFile('v1-5-pruned-emaonly.safetensors', checkpoints)).toBe('v1-5-pruned-emaonly-fp16.safetensors');
		expect(closestModelFile('flux1-dev.safetensors', checkpoints)).toBe('flux1-dev-fp8.safetensors');
	});
	it('offers nothing when no name is alike, or the list is empty', () => {
		expect(closestModelFile('wan2.2_vae.safetensors', checkpoints)).toBeUndefined();
		expect(closestModelFile('anything.safetensors', [])).toBeUndefined();
	});
	it('rates the same name 1 and unrelated names near 0', () => {
		expect(nameLikeness('a/model_x.safetensors', 'model_x.ckpt')).toBe(1);
		expect(nameLikeness('abc.safetensors', 'xyz.safetensors')).toBe(0);
	});
});
