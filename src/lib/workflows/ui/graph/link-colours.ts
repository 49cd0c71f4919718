/** Link colours by type, close to the ones ComfyUI's editor uses, so a link reads the same here. */
const COLOURS: Record<string, string> = {
	MODEL: '#b39ddb',
	CLIP: '#ffd500',
	CLIP_VISION: '#a8dadc',
	CLIP_VISION_OUTPUT: '#ad7452',
	CONDITIONING: '#ffa931',
	CONTROL_NET: '#6ee7b7',
	IMAGE: '#64b5f6',
	LATENT: '#ff9cf9',
	MASK: '#81c784',
	VAE: '#ff6e6e',
	AUDIO: '#ea9a5a',
	VIDEO: '#7c9aed',
	INT: '#29b6a8',
	FLOAT: '#aed581',
	STRING: '#8ec5e6',
	BOOLEAN: '#f5a0b5'
};

export function linkColour(type: string): string {
	return Object.hasOwn(COLOURS, type) ? COLOURS[type]! : '#9aa3b5';
}
