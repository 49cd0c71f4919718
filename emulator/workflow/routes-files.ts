/** Files in and out: /upload/image, /upload/mask, /assets/from-hash and /view. */
import { basename } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import type { EmulatorState } from '../state';
import type { StorageService } from '../storage/server';
import { ASSET_HASH_PATTERN, type AssetCreated, type UploadResponse } from '../../src/lib/workflows/protocol/workflow-api';
import type { WorkflowEngine } from './engine';
import { isFileType, type FileType } from './files';
import { both, bareUnknownRoute, badRequest, isObject, parseJson } from './http-util';
import { MAX_UPLOAD_BYTES } from './socket-hub';
import { addTextChunks, readTextChunks } from './png-text';

/** A current ComfyUI started without `--enable-assets` (the default): its asset routes answer 503, as JSON. */
function assetsDisabled(reply: FastifyReply): FastifyReply {
	const message = 'Assets system is disabled. Start the server with --enable-assets to use this feature.';
	return reply.code(503).send({ error: { code: 'SERVICE_DISABLED', message, details: {} } });
}

/** How long a signed /view URL stays valid (the spec leaves it open). */
export const VIEW_URL_LIFETIME_SECONDS = 3600;

const MIME_BY_EXTENSION: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
	gif: 'image/gif',
	wav: 'audio/wav',
	flac: 'audio/flac',
	mp3: 'audio/mpeg',
	mp4: 'video/mp4',
	webm: 'video/webm'
};

export function mimeOf(filename: string, fallback: string): string {
	return MIME_BY_EXTENSION[filename.split('.').pop()?.toLowerCase() ?? ''] ?? fallback;
}

interface UploadParts {
	file?: { filename: string; bytes: Buffer; mimetype: string };
	fields: Record<string, string>;
}

type ReadResult = { ok: true; parts: UploadParts } | { ok: false; message: string; status?: number };

async function readParts(request: FastifyRequest): Promise<ReadResult> {
	if (!request.isMultipart())
		return { ok: false, message: 'Send multipart/form-data with the file in the "image" part (do not set a JSON content type).' };
	const parts: UploadParts = { fields: {} };
	try {
		for await (const part of request.parts()) {
			if (part.type === 'file') {
				const bytes = await part.toBuffer();
				if (part.fieldname === 'image') parts.file = { filename: part.filename, bytes, mimetype: part.mimetype };
			} else if (typeof part.value === 'string') parts.fields[part.fieldname] = part.value;
		}
	} catch (error) {
		if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
			return { ok: false, status: 413, message: `The file is larger than ${MAX_UPLOAD_BYTES} bytes, the service's max_upload_size.` };
		}
		return { ok: false, message: `The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}` };
	}
	return { ok: true, parts };
}

export function installFileRoutes(app: FastifyInstance, state: EmulatorState, engine: WorkflowEngine, storage: StorageService): void {
	const store = async (
		type: FileType,
		filename: string,
		subfolder: string,
		bytes: Buffer,
		mime: string,
		overwrite: boolean
	): Promise<UploadResponse> => {
		const blob = await storage.blobs.put(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mime);
		const local = engine.rules.local;
		const name = local && overwrite ? filename : engine.files.uploadName(type, filename, blob.hash, local);
		engine.files.put({ type, filename: name, subfolder, hash: blob.hash, mime, size: bytes.length });
		return { name, subfolder, type };
	};

	const common = (parts: UploadParts): { ok: true; type: FileType; filename: string } | { ok: false; message: string } => {
		if (!parts.file) return { ok: false, message: 'The "image" part (the file) is missing.' };
		const type = parts.fields['type'] ?? 'input';
		if (!isFileType(type)) return { ok: false, message: `"type" must be input, temp or output, not "${type}".` };
		const filename = basename(parts.file.filename.replaceAll('\\', '/'));
		if (!filename || filename === '.' || filename === '..') return { ok: false, message: 'The file part has no usable filename.' };
		return { ok: true, type, filename };
	};

	/** The multipart body read and checked; on a bad one the answer is sent and this gives nothing. */
	const readUpload = async (request: FastifyRequest, reply: FastifyReply) => {
		const read = await readParts(request);
		if (!read.ok) {
			if (read.status) void reply.code(read.status).send({ code: 'payload_too_large', message: read.message });
			else void badRequest(reply, read.message);
			return undefined;
		}
		const checked = common(read.parts);
		if (!checked.ok) {
			void badRequest(reply, checked.message);
			return undefined;
		}
		return { read, checked };
	};

	for (const path of both('/upload/image')) {
		app.post(path, async (request, reply) => {
			const upload = await readUpload(request, reply);
			if (!upload) return reply;
			const { read, checked } = upload;
			const file = read.parts.file!;
			return store(
				checked.type,
				checked.filename,
				read.parts.fields['subfolder'] ?? '',
				file.bytes,
				mimeOf(checked.filename, file.mimetype),
				read.parts.fields['overwrite'] === 'true'
			);
		});
	}

	for (const path of both('/upload/mask')) {
		app.post(path, async (request, reply) => {
			const upload = await readUpload(request, reply);
			if (!upload) return reply;
			const { read, checked } = upload;
			const rawRef = read.parts.fields['original_ref'];
			const ref = parseJson(rawRef);
			if (rawRef === undefined || !ref.ok || !isObject(ref.value) || typeof ref.value['filename'] !== 'string') {
				return badRequest(
					reply,
					'"original_ref" must be a JSON file reference such as {"filename":"photo.png","subfolder":"","type":"input"}.'
				);
			}
			const refType = ref.value['type'] ?? 'input';
			if (!isFileType(refType)) return badRequest(reply, `original_ref.type must be input, temp or output, not "${String(refType)}".`);
			const original = engine.files.get(refType, ref.value['filename']);
			const originalBlob = original ? storage.blobs.get(original.hash) : undefined;
			if (!originalBlob)
				return badRequest(reply, `original_ref names ${ref.value['filename']}, which is not stored: upload the image first.`);
			let composed: Buffer;
			try {
				composed = await withMaskAsAlpha(originalBlob.bytes, read.parts.file!.bytes);
			} catch {
				return badRequest(reply, 'The mask or the original is not an image this service can read.');
			}
			return store(
				checked.type,
				checked.filename,
				read.parts.fields['subfolder'] ?? '',
				composed,
				'image/png',
				read.parts.fields['overwrite'] === 'true'
			);
		});
	}

	for (const path of both('/assets/from-hash')) {
		app.post<{ Body: unknown }>(path, async (request, reply) => {
			if (engine.rules.currentComfy) return assetsDisabled(reply);
			if (engine.rules.local) return bareUnknownRoute(request, reply);
			const parsed = parseJson(request.body);
			if (!parsed.ok || !isObject(parsed.value))
				return badRequest(reply, 'The body must be a JSON object: {"hash": "blake3:<64 hex>", "tags": ["input"]}.', 'invalid_body');
			const body = parsed.value;
			const hash = body['hash'];
			if (typeof hash !== 'string' || !ASSET_HASH_PATTERN.test(hash)) {
				return badRequest(reply, '"hash" must be "blake3:" or "sha256:" followed by 64 lowercase hex characters.', 'invalid_hash');
			}
			const tags = body['tags'];
			if (!Array.isArray(tags) || tags.length === 0 || !tags.every((t) => typeof t === 'string' && t !== '')) {
				return badRequest(reply, '"tags" must be an array of at least one non-empty string, e.g. ["input"].', 'invalid_tags');
			}
			for (const key of ['name', 'mime_type'] as const) {
				if (body[key] !== undefined && (typeof body[key] !== 'string' || body[key] === ''))
					return badRequest(reply, `"${key}" must be a non-empty string.`, 'invalid_body');
			}
			if (body['user_metadata'] !== undefined && !isObject(body['user_metadata']))
				return badRequest(reply, '"user_metadata" must be an object.', 'invalid_body');
			const blob = storage.blobs.find(hash);
			if (!blob) return reply.code(404).send({ code: 'not_found', message: `No stored content has the hash ${hash}: upload it first.` });
			const now = new Date(state.now()).toISOString();
			const { asset, created } = engine.files.assetReference({
				hash,
				blake3: blob.hash,
				name: (body['name'] as string | undefined) ?? blob.hash.slice('blake3:'.length),
				size: blob.bytes.length,
				mime: (body['mime_type'] as string | undefined) ?? blob.mime,
				tags: tags as string[],
				userMetadata: body['user_metadata'] as Record<string, unknown> | undefined,
				now
			});
			const answer: AssetCreated = { ...asset, created_new: created };
			return reply.code(created ? 201 : 200).send(answer);
		});
	}

	for (const path of both('/view')) {
		app.get<{ Querystring: Record<string, string | undefined> }>(path, async (request, reply) => {
			const q = request.query;
			// ComfyUI answers a /view without filename with a bare 404.
			if (!q['filename'])
				return engine.rules.local ? reply.code(404).send() : badRequest(reply, 'The "filename" query parameter is required.');
			const type = q['type'] || 'output';
			if (!isFileType(type)) return badRequest(reply, `"type" must be output, temp or input, not "${type}".`);
			const file = engine.files.get(type, q['filename']);
			const blob = file ? storage.blobs.get(file.hash) : undefined;
			if (!file || !blob) return reply.code(404).send({ code: 'not_found', message: `No ${type} file named ${q['filename']}.` });
			let served = { hash: blob.hash, bytes: blob.bytes, mime: blob.mime, filename: file.filename };
			if (q['preview'] && blob.mime.startsWith('image/')) {
				const preview = await thumbnail(blob.bytes, q['preview']);
				if (preview) {
					const stored = await storage.blobs.put(preview.bytes, preview.mime);
					served = {
						hash: stored.hash,
						bytes: stored.bytes,
						mime: preview.mime,
						filename: file.filename.replace(/\.[^.]+$/, '') + '.' + preview.mime.split('/')[1]
					};
				}
			}
			if (engine.rules.local) {
				return sendBytes(reply, served.bytes, served.mime, served.filename);
			}
			return reply
				.code(302)
				.header('Location', storage.signedUrl(served.hash, served.filename, VIEW_URL_LIFETIME_SECONDS))
				.header('Cache-Control', 'no-store')
				.send();
		});
	}
}

/**
 * What ComfyUI's /upload/mask saves: the original's colours with the uploaded mask's alpha channel
 * copied in unchanged (the client makes painted pixels alpha 0, since LoadImage's MASK is 1 − alpha),
 * as PNG, keeping the original's PNG text chunks. A mask of another size is stretched to the original.
 */
export async function withMaskAsAlpha(original: Uint8Array, mask: Uint8Array): Promise<Buffer> {
	// Raw RGB first: sharp applies removeAlpha after joinChannel in one pipeline, which would drop the new alpha.
	const rgb = await sharp(original).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
	const { width, height } = rgb.info;
	const alpha = await sharp(mask).ensureAlpha().extractChannel(3).resize(width, height, { fit: 'fill' }).raw().toBuffer();
	const png = await sharp(rgb.data, { raw: { width, height, channels: 3 } })
		.joinChannel(alpha, { raw: { width, height, channels: 1 } })
		.png()
		.toBuffer();
	const isPng = Buffer.from(original.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
	const text = isPng ? Object.entries(readTextChunks(original)) : [];
	return text.length > 0 ? addTextChunks(png, text) : png;
}

function sendBytes(reply: FastifyReply, bytes: Uint8Array, mime: string, filename: string): FastifyReply {
	return reply
		.type(mime)
		.header('Content-Disposition', `filename="${filename.replaceAll('"', '')}"`)
		.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** ComfyUI's `preview=webp;90` (or `jpeg;75`): the same picture re-encoded, not resized. */
export async function thumbnail(bytes: Uint8Array, spec: string): Promise<{ bytes: Uint8Array; mime: string } | undefined> {
	const [format, quality] = spec.split(';');
	const q = quality && /^\d+$/.test(quality) ? Math.min(100, Math.max(1, Number(quality))) : 90;
	try {
		const image = sharp(bytes).removeAlpha();
		const out = format === 'jpeg' ? await image.jpeg({ quality: q }).toBuffer() : await image.webp({ quality: q }).toBuffer();
		return { bytes: new Uint8Array(out), mime: format === 'jpeg' ? 'image/jpeg' : 'image/webp' };
	} catch {
		return undefined;
	}
}
