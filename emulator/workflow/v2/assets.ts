/**
 * v2 asset records over the shared content-addressed blob store (the same BLAKE3 blobs v1 uploads
 * and outputs use). A record belongs to the surface (caller) that made it; another caller's record
 * is "not yours" and looks unknown. Scanning and a late hash are timed faults read at creation.
 */
import type { SurfaceName } from './surface';

export interface AssetRecord {
	id: string;
	owner: SurfaceName;
	/** The blob's key, `blake3:<hex>` (always known internally). */
	blobHash: string;
	size: number;
	contentType: string;
	filePath: string | null;
	createdAt: number;
	/** Before this emulator time the asset is "scanning": not ready, answered 202. */
	readyAt: number;
	/** Before this emulator time `hash` is null (not computed yet). */
	hashAt: number;
	/** Output assets of the self-hosted proxy stop resolving after a restart. */
	output: boolean;
}

export class AssetBook {
	private readonly byId = new Map<string, AssetRecord>();

	add(record: AssetRecord): AssetRecord {
		this.byId.set(record.id, record);
		return record;
	}

	get(id: string, owner: SurfaceName): AssetRecord | undefined {
		const record = this.byId.get(id);
		return record && record.owner === owner ? record : undefined;
	}

	/** The caller's newest asset over this blob (and, when given, this file_path). */
	findByHash(owner: SurfaceName, blobHash: string, filePath?: string | null): AssetRecord | undefined {
		let found: AssetRecord | undefined;
		for (const r of this.byId.values()) {
			if (r.owner !== owner || r.blobHash !== blobHash || r.output) continue;
			if (filePath !== undefined && r.filePath !== filePath) continue;
			found = r;
		}
		return found;
	}

	ownsBlob(owner: SurfaceName, blobHash: string): boolean {
		for (const r of this.byId.values()) if (r.owner === owner && r.blobHash === blobHash) return true;
		return false;
	}

	/** The proxy's `DELETE /assets/{id}`: the record goes; the blob stays for whoever else holds it. */
	remove(id: string, owner: SurfaceName): boolean {
		const record = this.get(id, owner);
		if (record) this.byId.delete(id);
		return record !== undefined;
	}

	/** A proxy restart: its output ids are forgotten. */
	forgetOutputs(owner: SurfaceName): number {
		let n = 0;
		for (const [id, r] of this.byId) {
			if (r.owner === owner && r.output) {
				this.byId.delete(id);
				n++;
			}
		}
		return n;
	}

	clear(): void {
		this.byId.clear();
	}
}
