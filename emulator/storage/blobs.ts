/**
 * Content-addressed bytes shared by both services: uploads and outputs of the workflow service,
 * result assets of the router. Keyed by BLAKE3 (`blake3:<64 hex>`), as the workflow spec's storage is.
 */
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

	async put(bytes: Uint8Array, mime: string): Promise<Blob> {
		const hash = `blake3:${await blake3Hex(bytes)}`;
		const existing = this.blobs.get(hash);
		if (existing) return existing;
		const blob = { hash, bytes, mime };
		this.blobs.set(hash, blob);
		return blob;
	}

	get(hash: string): Blob | undefined {
		return this.blobs.get(hash);
	}

	has(hash: string): boolean {
		return this.blobs.has(hash);
	}

	clear(): void {
		this.blobs.clear();
	}
}
