/**
 * The service's file names over the content-addressed blob store. The namespace is flat, as the
 * spec says: a file is found by its type (`input`, `output`, `temp`) and filename; `subfolder`
 * is only echoed. Asset references made by `from-hash` live here too, found by their `name`.
 */
import { randomUUID } from 'node:crypto';
import type { Asset } from '../../src/lib/workflows/protocol/workflow-api';

export type FileType = 'input' | 'output' | 'temp';

export const FILE_TYPES: readonly FileType[] = ['input', 'output', 'temp'];

export function isFileType(value: unknown): value is FileType {
	return typeof value === 'string' && (FILE_TYPES as readonly string[]).includes(value);
}

export interface StoredFile {
	type: FileType;
	filename: string;
	subfolder: string;
	hash: string;
	mime: string;
	size: number;
}

export class FileIndex {
	private readonly files = new Map<string, StoredFile>();
	private readonly counters = new Map<string, number>();
	/** from-hash references, keyed by hash and name. */
	private readonly assets = new Map<string, Asset>();

	get(type: FileType, filename: string): StoredFile | undefined {
		return this.files.get(`${type}/${filename}`);
	}

	/**
	 * A file named as a node input names it: `pasted/photo.png` is `photo.png` uploaded to the
	 * subfolder `pasted` (ComfyUI's annotated paths, e.g. what its mask editor saves under `clipspace/`).
	 */
	getByPath(type: FileType, path: string): StoredFile | undefined {
		const exact = this.get(type, path);
		if (exact) return exact;
		const slash = path.lastIndexOf('/');
		if (slash < 0) return undefined;
		const file = this.get(type, path.slice(slash + 1));
		return file?.subfolder === path.slice(0, slash) ? file : undefined;
	}

	/** Whether any file of the account is stored over this blob. */
	hasBlob(hash: string): boolean {
		for (const f of this.files.values()) if (f.hash === hash) return true;
		for (const a of this.assets.values()) if (a.asset_hash === hash) return true;
		return false;
	}

	put(file: StoredFile): StoredFile {
		this.files.set(`${file.type}/${file.filename}`, file);
		return file;
	}

	/** Names of input files that are images (and, when asked, of image assets tagged `input`): LoadImage's combo. */
	inputImages(withAssets: boolean): string[] {
		return this.inputNames((mime) => mime.startsWith('image/'), withAssets);
	}

	/** Names of input files (and, when asked, of assets tagged `input`) whose MIME type or name passes. */
	inputNames(accept: (mime: string, name: string) => boolean, withAssets: boolean): string[] {
		const names = new Set([...this.files.values()].filter((f) => f.type === 'input' && accept(f.mime, f.filename)).map((f) => f.filename));
		if (withAssets) {
			for (const asset of this.assets.values())
				if (asset.tags?.includes('input') && accept(asset.mime_type ?? '', asset.name)) names.add(asset.name);
		}
		return [...names].sort();
	}

	/**
	 * The name an upload gets. The same bytes under the same name keep the name; with
	 * `renameOnClash` (the local runtime) other bytes under a taken name get `name (1).png`.
	 */
	uploadName(type: FileType, filename: string, hash: string, renameOnClash: boolean): string {
		if (!renameOnClash) return filename;
		const dot = filename.lastIndexOf('.');
		const stem = dot > 0 ? filename.slice(0, dot) : filename;
		const ext = dot > 0 ? filename.slice(dot) : '';
		let candidate = filename;
		for (let i = 1; ; i++) {
			const existing = this.get(type, candidate);
			if (!existing || existing.hash === hash) return candidate;
			candidate = `${stem} (${i})${ext}`;
		}
	}

	/**
	 * ComfyUI's output naming: `<prefix>_00001_.png`. The namespace is flat, so the counter runs per
	 * base name and extension: `audio/x` and `x` never produce the same filename.
	 */
	nextOutputName(prefix: string, extension: string): { filename: string; subfolder: string } {
		const slash = prefix.lastIndexOf('/');
		const subfolder = slash >= 0 ? prefix.slice(0, slash) : '';
		const base = (slash >= 0 ? prefix.slice(slash + 1) : prefix) || 'ComfyUI';
		const key = `${base}.${extension}`;
		const n = (this.counters.get(key) ?? 0) + 1;
		this.counters.set(key, n);
		return { filename: `${base}_${String(n).padStart(5, '0')}_.${extension}`, subfolder };
	}

	/** Finds or creates the reference for (hash, name): `created` says which. */
	assetReference(input: {
		hash: string;
		blake3: string;
		name: string;
		size: number;
		mime: string;
		tags: string[];
		userMetadata: Record<string, unknown> | undefined;
		now: string;
	}): { asset: Asset; created: boolean } {
		const key = `${input.blake3}\u0000${input.name}`;
		const existing = this.assets.get(key);
		if (existing) return { asset: existing, created: false };
		const asset: Asset = {
			id: randomUUID(),
			name: input.name,
			asset_hash: input.blake3,
			size: input.size,
			mime_type: input.mime,
			tags: input.tags,
			...(input.userMetadata ? { user_metadata: input.userMetadata } : {}),
			preview_id: null,
			prompt_id: null,
			created_at: input.now,
			updated_at: input.now,
			last_access_time: input.now,
			is_immutable: false
		};
		this.assets.set(key, asset);
		return { asset, created: true };
	}

	/** The newest from-hash reference with this name (what a workflow input references). */
	assetByName(name: string): Asset | undefined {
		let found: Asset | undefined;
		for (const asset of this.assets.values()) if (asset.name === name) found = asset;
		return found;
	}

	clear(): void {
		this.files.clear();
		this.counters.clear();
		this.assets.clear();
	}
}
