/**
 * Getting a chosen file to the service as a workflow input, uploading bytes only when the service
 * does not already have them: hash (BLAKE3, cached by file identity), try `from-hash`, and upload
 * on 404 or against a runtime without it. Masks are always uploaded, with their `original_ref`.
 */
import { appError, fail, ok, type Result } from '../../domain/errors';
import { readJson } from '../../domain/http-response';
import { isObject, str } from '../../wire/json';
import type { FileRef } from '../../wire/workflow-api';
import type { Connection } from '../context';
import type { KeyValueStore } from '../kv-store';
import { blake3OfBlob, fileIdentity } from './file-hasher';
import { WorkflowClient } from './workflow-client';

export interface UploadedInput {
	name: string;
	subfolder: string;
	type: FileRef['type'];
	hash: string;
	via: 'from-hash' | 'upload';
	uploadedBytes: number;
}

export type UploadPhase = 'hashing' | 'checking' | 'uploading' | 'done';
export type UploadProgress = (phase: UploadPhase, loaded: number, total: number) => void;

const HASH_CACHE = 'hash:';

/** The name under which content is stored: its hash prefix keeps same-named different files apart. */
export function assetName(hash: string, fileName: string): string {
	const clean = fileName.replace(/[^\w.\- ]+/g, '_').slice(-80) || 'image.png';
	return `${hash.slice(0, 12)}_${clean}`;
}

export async function hashWithCache(kv: KeyValueStore, file: File, onProgress: UploadProgress): Promise<string> {
	const cacheKey = HASH_CACHE + fileIdentity(file);
	const cached = await kv.get<string>(cacheKey);
	if (cached) {
		onProgress('hashing', file.size, file.size);
		return cached;
	}
	const hash = await blake3OfBlob(file, (p) => onProgress('hashing', p.loaded, p.total));
	await kv.set(cacheKey, hash);
	return hash;
}

export async function sendInput(
	connection: Connection,
	kv: KeyValueStore,
	file: File,
	options: { mask?: { originalRef: FileRef }; forceUpload?: boolean },
	onProgress: UploadProgress
): Promise<Result<UploadedInput>> {
	let hash: string;
	try {
		hash = await hashWithCache(kv, file, onProgress);
	} catch (error) {
		return fail(appError('storage', `The file could not be read: ${error instanceof Error ? error.message : String(error)}`));
	}
	const name = assetName(hash, file.name);
	const client = new WorkflowClient(connection);
	if (!options.mask && !options.forceUpload) {
		onProgress('checking', 0, file.size);
		const known = await client.fromHash(hash, name, file.type || 'application/octet-stream');
		if (!known.ok) return known;
		if (known.value.kind === 'known') {
			onProgress('done', file.size, file.size);
			return ok({ name: known.value.name, subfolder: '', type: 'input', hash, via: 'from-hash', uploadedBytes: 0 });
		}
	}
	const form = new FormData();
	form.append('image', file, name);
	form.append('type', 'input');
	form.append('subfolder', '');
	form.append('overwrite', 'false');
	if (options.mask) form.append('original_ref', JSON.stringify(options.mask.originalRef));
	const endpoint = options.mask ? '/api/upload/mask' : '/api/upload/image';
	const key = connection.key;
	const res = await connection.upload({
		url: `${connection.profile.workflowUrl}${endpoint}`,
		form,
		credential: key ? { scheme: 'x-api-key', key } : null,
		onProgress: (loaded, total) => onProgress('uploading', loaded, total || file.size)
	});
	if (!res.ok) return res;
	const body = readJson(res.value, 'workflow');
	if (!body.ok) return body;
	const uploadedName = isObject(body.value) ? str(body.value, 'name') : undefined;
	if (!uploadedName) return fail(appError('bad-response', 'The upload was accepted but the answer has no file name.'));
	onProgress('done', file.size, file.size);
	const type = isObject(body.value) ? str(body.value, 'type') : undefined;
	return ok({
		name: uploadedName,
		subfolder: (isObject(body.value) && str(body.value, 'subfolder')) || '',
		type: type === 'temp' || type === 'output' ? type : 'input',
		hash,
		via: 'upload',
		uploadedBytes: file.size
	});
}
