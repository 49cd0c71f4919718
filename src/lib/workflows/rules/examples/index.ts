/**
 * Demo workflows in API format, offered by the app as examples and run by the emulator's tests.
 * `image-edit` loads `example.png`: upload a picture under that name first.
 */
import textToImage from './text-to-image.json';
import imageEdit from './image-edit.json';
import partnerNodes from './partner-nodes.json';
import textToAnimation from './text-to-animation.json';
import type { ApiPrompt } from '../../protocol/workflow-api';

export interface ExampleWorkflow {
	id: string;
	title: string;
	description: string;
	prompt: ApiPrompt;
	/** Partner nodes need the API key in extra_data.api_key_service_org. */
	needsPartnerKey: boolean;
	/** Input files the workflow loads by name. */
	inputs: string[];
}

export const EXAMPLE_WORKFLOWS: ExampleWorkflow[] = [
	{
		id: 'text-to-image',
		title: 'Text to image',
		description: 'The classic checkpoint, prompt, KSampler and VAE decode chain.',
		prompt: textToImage as ApiPrompt,
		needsPartnerKey: false,
		inputs: []
	},
	{
		id: 'image-edit',
		title: 'Image edit',
		description: 'Scale, crop, blur and invert an uploaded picture.',
		prompt: imageEdit as ApiPrompt,
		needsPartnerKey: false,
		inputs: ['example.png']
	},
	{
		id: 'partner-nodes',
		title: 'Partner nodes',
		description: 'An image and a sound from partner services, billed in credits.',
		prompt: partnerNodes as ApiPrompt,
		needsPartnerKey: true,
		inputs: []
	},
	{
		id: 'text-to-animation',
		title: 'Text to animation',
		description: 'A batch of frames saved as an animated WebP (a video output).',
		prompt: textToAnimation as ApiPrompt,
		needsPartnerKey: false,
		inputs: []
	}
];
