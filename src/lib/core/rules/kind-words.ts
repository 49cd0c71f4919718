/**
 * The kind of thing words name: a model's title and description, an input's name or description.
 * One rule for the catalog and the forms, so "speech" means audio in both.
 */

export type WordKind = '3d' | 'video' | 'audio' | 'image' | 'text';

/**
 * Identifiers read as words: `image_url`, `imageUrl`, `start-frame` become "image url", "image Url",
 * "start frame", so whole-word rules see their parts.
 */
function asWords(text: string): string {
	return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-/]+/g, ' ');
}

/** The kind words name, strongest first: "animates a still picture" is video, not image. */
export function kindInWords(words: string): WordKind | undefined {
	const w = asWords(words).toLowerCase();
	if (/\b(3d|mesh|meshes|glb|gltf|obj)\b/.test(w)) return '3d';
	if (/\b(video|videos|clip|clips|movie|animate[sd]?|animation|motion|t2v|i2v)\b/.test(w)) return 'video';
	if (/\b(audio|speech|voice|voices|sound|sounds|soundtrack|music|song|tts|aloud|wav|mp3)\b/.test(w)) return 'audio';
	if (
		/\b(images?|img|picture|pictures|photo|photos|portrait|mask|frames?|draw[sn]?|paint|repaints?|upscale[sd]?|inpaint\w*|pixel|png|jpe?g|webp)\b/.test(
			w
		)
	)
		return 'image';
	if (/\b(chat|llm|language model|answers?|writes|text generation|completion|instruct)\b/.test(w)) return 'text';
	return undefined;
}
