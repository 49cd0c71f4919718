/**
 * The named texts a file carries (ComfyUI: `prompt` = API format, `workflow` = UI format, and any
 * other `extra_pnginfo` key), collected into a null-prototype object: the keys come from the file,
 * so `__proto__` or `constructor` are plain keys here, never inherited members.
 */

export type FileTexts = { readonly [key: string]: string | undefined };

export class TextCollector {
	private readonly texts: Record<string, string> = Object.create(null) as Record<string, string>;
	private count = 0;

	/** The first text under a key wins (ComfyUI writes each key once). */
	add(key: string, value: string): void {
		if (key === '' || Object.hasOwn(this.texts, key)) return;
		this.texts[key] = value;
		this.count++;
	}

	get size(): number {
		return this.count;
	}

	result(): FileTexts {
		return this.texts;
	}
}

export function ownText(texts: FileTexts, key: string): string | undefined {
	return Object.hasOwn(texts, key) ? texts[key] : undefined;
}
