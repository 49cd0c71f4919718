/**
 * Content-addressed bytes shared by both services: uploads and outputs of the workflow service,
 * result assets of the router. Keyed by BLAKE3 (`blake3:<64 hex>`), as the workflow spec's storage is.
 */
import { createHash } from 'node:crypto';
import { blake3 } from 'hash-wasm';

export interface Blob {
	hash: string;
	bytes: Uint8Array;
	mime: string;
}

export async function blake3Hex(bytes: Uint8Array): Promise<string> {
	return blake3(bytes);
}

export class BlobStore {
	private readonly blobs = new Map<string, Blob>();
	/** `sha256:<hex>` to the blob's BLAKE3 key: from-hash accepts either algorithm. */
	private readonly sha256Index = new Map<string, string>();

	async put(bytes: Uint8Array, mime: string): Promise<Blob> {
		const hash = `blake3:${await blake3Hex(bytes)}`;
		const existing = this.blobs.get(hash);
		if (existing) return existing;
		const blob = { hash, bytes, mime };
		this.blobs.set(hash, blob);
		this.sha256Index.set(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, hash);
		return blob;
	}

	get(hash: string): Blob | undefined {
		return this.blobs.get(hash);
	}

	/** Looks a blob up by `blake3:<hex>` or `sha256:<hex>`. */
	find(hash: string): Blob | undefined {
		const key = hash.startsWith('sha256:') ? this.sha256Index.get(hash) : hash;
		return key === undefined ? undefined : this.blobs.get(key);
	}

	has(hash: string): boolean {
		return this.blobs.has(hash);
	}

	clear(): void {
		this.blobs.clear();
		this.sha256Index.clear();
	}
}
