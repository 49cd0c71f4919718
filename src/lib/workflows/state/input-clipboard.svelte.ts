/**
 * An output chosen with "Use as input", offered to the next image input a person fills. It keeps the
 * bytes, not the output's object URL: that URL is revoked when the run page that showed it goes.
 */
export class InputClipboard {
	item = $state<{ blob: Blob; filename: string } | null>(null);

	/** Copies the bytes behind `url` (an object URL of the page showing the output). */
	async set(url: string, filename: string): Promise<void> {
		const blob = await (await fetch(url)).blob();
		this.item = { blob, filename };
	}

	/** The copied output as a File. */
	file(): Promise<File | undefined> {
		const item = this.item;
		return Promise.resolve(item ? new File([item.blob], item.filename, { type: item.blob.type || 'image/png' }) : undefined);
	}
}

export const inputClipboard = new InputClipboard();
