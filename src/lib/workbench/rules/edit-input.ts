/**
 * The picture an edit started from, for the before/after slider against its output: the image a
 * workflow's LoadImage node loads, or the image link or attached file of a model request. Pure: no DOM.
 */
import type { Json } from '../../core/protocol/json';
import type { ApiPrompt } from '../../workflows';

const MAX_DEPTH = 4;
/** Input names that hold the picture being edited (not masks, sizes or styles). */
const IMAGE_KEY = /image|img|photo|picture/i;
const NOT_THE_PICTURE = /mask|size|format|count|num_|strength|style/i;
const IMAGE_VALUE = /^(https?:\/\/\S+$|data:[a-z0-9.+-]+\/[a-z0-9.+-]+;base64,)/i;

/**
 * A model request's input image: the first link or inline file (a data URI, as a chosen file is sent)
 * under an image-like name, at the top or nested (`input.image`, `image_urls[0]`), in body order.
 */
export function inputImageOfBody(body: Json): string | null {
	const visit = (value: Json, key: string, depth: number): string | null => {
		if (typeof value === 'string') return IMAGE_KEY.test(key) && !NOT_THE_PICTURE.test(key) && IMAGE_VALUE.test(value) ? value : null;
		if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return null;
		if (Array.isArray(value)) {
			for (const item of value) {
				const found = visit(item, key, depth + 1);
				if (found) return found;
			}
			return null;
		}
		for (const [name, item] of Object.entries(value)) {
			const found = visit(item, name, depth + 1);
			if (found) return found;
		}
		return null;
	};
	return visit(body, '', 0);
}

/** One picture a LoadImage node loads from the server's input folder: its node and its file name there. */
export interface LoadedImage {
	nodeId: string;
	name: string;
}

/**
 * The pictures a workflow's LoadImage nodes load from the server's input folder, in node order.
 * ComfyUI's annotated names are read: "x.png [input]" is x.png; one from [output] or [temp] is left out.
 */
export function loadedImages(prompt: ApiPrompt): LoadedImage[] {
	const ids = Object.keys(prompt).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
	const images: LoadedImage[] = [];
	for (const id of ids) {
		const node = prompt[id];
		if (node?.class_type !== 'LoadImage' || typeof node.inputs !== 'object' || node.inputs === null) continue;
		const value = Object.hasOwn(node.inputs, 'image') ? (node.inputs as Record<string, unknown>)['image'] : undefined;
		if (typeof value !== 'string' || !value.trim()) continue;
		const annotated = /^(.*) \[(input|output|temp)\]$/.exec(value);
		if (annotated && annotated[2] !== 'input') continue;
		images.push({ nodeId: id, name: annotated ? annotated[1]! : value });
	}
	return images;
}

/** The file names of `loadedImages`, in node order. */
export function loadedImageNames(prompt: ApiPrompt): string[] {
	return loadedImages(prompt).map((image) => image.name);
}
