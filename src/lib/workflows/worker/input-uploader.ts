/**
 * Getting a chosen file to the service as a workflow input, uploading bytes only when the service
 * does not already have them: hash (BLAKE3, cached by file identity), offer the hash to the
 * surface, and upload on a miss or where the surface has no such route. Masks are always uploaded,
 * with their `original_ref`. Everything stops when `signal` aborts: the hash, the offer, the upload.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import type { FileRef } from '../protocol/workflow-api';
import type { KeyValueStore } from '../../core/worker/kv-store';
import { FILE_HASH_KEY as HASH_KEY } from '../../core/protocol/storage-keys';
import type { UploadedInput, UploadProgress } from '../protocol/api';
import { blake3OfBlob, fileIdentity } from './file-hasher';
import type { WorkflowSurface } from './surfaces/surface';

/** The name under which content is stored: its hash prefix keeps same-named different files apart. */
export function assetName(hash: string, fileName: string): string {
	const clean = fileName.replace(/[^\w.\- ]+/g, '_').slice(-80) || 'image.png';
	return `${hash.slice(0, 12)}_${clean}`;
}

export async function hashWithCache(kv: KeyValueStore, file: File, onProgress: UploadProgress, signal?: AbortSignal): Promise<string> {
	const cacheKey = HASH_KEY + fileIdentity(file);
	const cached = await kv.get<string>(cacheKey);
	if (cached) {
		onProgress('hashing', file.size, file.size);
		return cached;
	}
	const hash = await blake3OfBlob(file, (p) => onProgress('hashing', p.loaded, p.total), signal);
	await kv.set(cacheKey, hash);
	return hash;
}

const CANCELLED = 'Cancelled: the file was not sent.';

export async function sendInput(
	surface: WorkflowSurface,
	kv: KeyValueStore,
	file: File,
	options: { mask?: { originalRef: FileRef }; forceUpload?: boolean; signal?: AbortSignal },
	onProgress: UploadProgress
): Promise<Result<UploadedInput>> {
	const { signal } = options;
	let hash: string;
	try {
		hash = await hashWithCache(kv, file, onProgress, signal);
	} catch (error) {
		if (signal?.aborted) return fail(appError('cancelled', CANCELLED));
		return fail(appError('storage', `The file could not be read: ${error instanceof Error ? error.message : String(error)}`));
	}
	if (signal?.aborted) return fail(appError('cancelled', CANCELLED));
	const name = assetName(hash, file.name);
	if (!options.mask && !options.forceUpload) {
		onProgress('checking', 0, file.size);
		const known = await surface.offerHash(hash, name, file.type || 'application/octet-stream', signal);
		if (signal?.aborted) return fail(appError('cancelled', CANCELLED));
		if (!known.ok) return known;
		if (known.value.kind === 'known') {
			onProgress('done', file.size, file.size);
			return ok({ name: known.value.name, subfolder: '', type: 'input', hash, via: 'from-hash', uploadedBytes: 0 });
		}
	}
	const stored = await surface.uploadFile({
		file,
		name,
		...(options.mask ? { mask: options.mask } : {}),
		expectedHash: `blake3:${hash}`,
		onProgress: (loaded, total) => onProgress('uploading', loaded, total || file.size),
		...(signal ? { signal } : {})
	});
	if (!stored.ok) return stored;
	onProgress('done', file.size, file.size);
	return ok({ ...stored.value, hash, via: 'upload', uploadedBytes: file.size });
}
