/**
 * How a browser shows a workflow output: ComfyUI lists an animated WebP, GIF or PNG (SaveAnimatedWEBP,
 * SaveAnimatedPNG) as a video, yet it is a picture to a browser, shown in an <img>, never a <video>.
 */
import type { OutputKind } from '../../core/protocol/workflow-run';

const PICTURE_FILE = /\.(webp|gif|png|apng)$/i;

export function shownKind(kind: OutputKind, name: string): OutputKind {
	return kind === 'video' && PICTURE_FILE.test(name) ? 'image' : kind;
}
