/**
 * A result's media named as a person says it: `video.url` is "Video", `last_frame.url` is "Last frame",
 * `images.1.url` is "Image 2". The path stays available behind "Details"; this is the caption.
 */

/** Keys that only say where the bytes are, not what they are. */
const WHERE_KEYS = /^(url|uri|href|src|data|content|file|file_url|b64_json|base64|value)$/i;

const words = (key: string): string =>
	key
		.replace(/[_-]+/g, ' ')
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.trim()
		.toLowerCase();

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "images" before an index names one of them: "image". Only a plain trailing s is dropped ("glasses" stays). */
const singular = (word: string): string => (/s$/.test(word) && !/(ss|sses)$/.test(word) && word.length > 3 ? word.slice(0, -1) : word);

/**
 * The caption of the asset at `path` (dot-separated keys and list indices). `fallback` names the kind
 * ("image") when the path says nothing, e.g. a result that is the file itself.
 */
export function assetName(path: string, fallback: string): string {
	const parts = path.split('.').filter((p) => p !== '');
	while (parts.length > 1 && WHERE_KEYS.test(parts[parts.length - 1]!)) parts.pop();
	const named: string[] = [];
	for (const part of parts) {
		if (/^\d+$/.test(part)) {
			const index = Number(part) + 1;
			if (named.length === 0) named.push(`${fallback} ${index}`);
			else named[named.length - 1] = `${singular(named[named.length - 1]!)} ${index}`;
		} else if (!WHERE_KEYS.test(part)) named.push(words(part));
	}
	// The outermost key rarely adds anything when a nested one names the thing ("output · image 1").
	const text = named.length === 0 ? fallback : named[named.length - 1]!;
	return capitalised(text);
}
