/** An output chosen with "Use as input", offered to the next image input a person fills. */
export class InputClipboard {
	item = $state<{ url: string; filename: string } | null>(null);

	set(url: string, filename: string): void {
		this.item = { url, filename };
	}

	/** The copied output as a File (its object URL is local: no network). */
	async file(): Promise<File | undefined> {
		if (!this.item) return undefined;
		const blob = await (await fetch(this.item.url)).blob();
		return new File([blob], this.item.filename, { type: blob.type || 'image/png' });
	}
}

export const inputClipboard = new InputClipboard();
