/** v2 assets: upload, from-hash, HEAD by hash, read, content. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { V2_HASH_PATTERN } from '../../../src/lib/workflows/protocol/workflow-v2';
import { blake3Hex } from '../../storage/blobs';
import { isObject, parseJson } from '../http-util';
import type { V2Core, SurfaceState } from './core';
import { v2Error } from './envelope';
import { canonicalJson, fingerprintOf } from './idempotency';
import { errorAnswer, keyed, type Answer } from './keyed';

interface UploadForm {
	bytes: Buffer | undefined;
	fields: Record<string, string>;
}

/** Reads the upload's parts; every file part's bytes are counted, so tests can see what a client sent. */
async function readForm(request: FastifyRequest, countBytes: (n: number) => void): Promise<UploadForm | string> {
	if (!request.isMultipart()) return 'Send multipart/form-data with the parts file, content_type and file_path.';
	const form: UploadForm = { bytes: undefined, fields: Object.create(null) as Record<string, string> };
	try {
		for await (const part of request.parts()) {
			if (part.type === 'file') {
				const bytes = await part.toBuffer();
				countBytes(bytes.length);
				if (part.fieldname === 'file') form.bytes = bytes;
			} else if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
		}
	} catch (error) {
		return `The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}`;
	}
	return form;
}

export function installAssetRoutes(app: FastifyInstance, core: V2Core, surface: SurfaceState): void {
	const rules = surface.rules;
	const owner = rules.name;

	app.post('/assets', async (request, reply) => {
		const form = await readForm(request, (n) => core.state.countUploadBytes(owner, n));
		if (typeof form === 'string') return v2Error(reply, 422, 'invalid_request', form);
		const { bytes, fields } = form;
		const contentType = fields['content_type'];
		const filePath = fields['file_path'];
		if (!bytes || !contentType || !filePath)
			return v2Error(reply, 422, 'invalid_request', 'The parts file, content_type and file_path are all required.');
		const expected = fields['expected_hash'];
		if (expected !== undefined && !V2_HASH_PATTERN.test(expected))
			return v2Error(reply, 422, 'invalid_request', '"expected_hash" must be "blake3:" followed by 64 lowercase hex characters.');
		const print = fingerprintOf([bytes, canonicalJson(fields)]);
		return keyed(core, surface, request, reply, print, async (): Promise<Answer> => {
			const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
			const hash = `blake3:${await blake3Hex(u8)}`;
			if (expected !== undefined && expected !== hash)
				return errorAnswer(409, 'hash_mismatch', `The bytes hash to ${hash}, not the expected ${expected}.`, { expected, actual: hash });
			const existed = core.ownsBlob(owner, hash);
			const blob = await core.storage.blobs.put(u8, contentType);
			const same = rules.sameIdDedup ? core.assets.findByHash(owner, hash) : undefined;
			if (same) return { status: 200, body: core.assetBody(rules, same, false), record: true };
			const asset = core.newAsset(rules, { hash: blob.hash, size: bytes.length, mime: contentType }, filePath);
			const status = !core.isReady(asset) ? 202 : existed ? 200 : 201;
			return { status, body: core.assetBody(rules, asset, !existed), record: true };
		});
	});

	app.post<{ Body: unknown }>('/assets/from-hash', async (request, reply) => {
		const parsed = parseJson(request.body);
		const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
		const hash = body?.['hash'];
		if (typeof hash !== 'string' || !V2_HASH_PATTERN.test(hash))
			return v2Error(reply, 422, 'invalid_request', 'Send {"hash": "blake3:<64 hex>", "file_path"?: "name.png"}.');
		const filePath = typeof body?.['file_path'] === 'string' ? (body['file_path'] as string) : null;
		const blob = core.storage.blobs.get(hash);
		if (!blob || !core.ownsBlob(owner, hash))
			return v2Error(reply, 404, 'blob_not_found', `No blob with the hash ${hash} is stored for you.`);
		const existing = rules.sameIdDedup ? core.assets.findByHash(owner, hash) : core.assets.findByHash(owner, hash, filePath);
		if (existing) return reply.code(200).send(core.assetBody(rules, existing, false));
		const asset = core.newAsset(rules, { hash, size: blob.bytes.length, mime: blob.mime }, filePath);
		// The proxy never answers 201 here.
		return reply.code(rules.sameIdDedup ? 200 : 201).send(core.assetBody(rules, asset, !rules.sameIdDedup));
	});

	app.head<{ Params: { hash: string } }>('/assets/by-hash/:hash', async (request, reply) => {
		const hash = request.params.hash;
		const found = V2_HASH_PATTERN.test(hash) && core.storage.blobs.has(hash) && core.ownsBlob(owner, hash);
		return reply.code(found ? 200 : 404).send();
	});

	const find = (id: string, reply: FastifyReply) => {
		const asset = core.assets.get(id, owner);
		if (!asset) void v2Error(reply, 404, 'not_found', `No asset with the id ${id}.`);
		return asset;
	};

	app.get<{ Params: { id: string } }>('/assets/:id', async (request, reply) => {
		const asset = find(request.params.id, reply);
		if (!asset) return reply;
		return reply.code(core.isReady(asset) ? 200 : 202).send(core.assetBody(rules, asset));
	});

	if (rules.proxyRoutes) {
		// A route beyond the contract (the real proxy's): the asset is forgotten; 204, then 404.
		app.delete<{ Params: { id: string } }>('/assets/:id', async (request, reply) =>
			core.assets.remove(request.params.id, owner)
				? reply.code(204).send()
				: v2Error(reply, 404, 'not_found', `No asset with the id ${request.params.id}.`)
		);
	}

	app.get<{ Params: { id: string } }>('/assets/:id/content', async (request, reply) => {
		const asset = find(request.params.id, reply);
		if (!asset) return reply;
		if (!core.isReady(asset))
			return v2Error(reply, 404, 'not_found', `The asset ${asset.id} is still being scanned: poll it until it is ready.`);
		if (rules.redirectContent) {
			return reply.code(302).header('Location', core.contentUrl(rules, asset)).header('Cache-Control', 'no-store').send();
		}
		const blob = core.storage.blobs.get(asset.blobHash);
		if (!blob) return v2Error(reply, 404, 'output_unavailable', 'The bytes are gone upstream.');
		return sendRange(
			reply,
			request.headers.range,
			Buffer.from(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.byteLength),
			asset.contentType
		);
	});
}

/** The proxy serves bytes itself, with Range; an unsatisfiable range comes back as 502 upstream_error. */
function sendRange(reply: FastifyReply, range: string | undefined, bytes: Buffer, mime: string): FastifyReply {
	reply.header('Accept-Ranges', 'bytes').type(mime);
	if (range === undefined) return reply.code(200).send(bytes);
	const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
	let start = m && m[1] !== '' ? Number(m[1]) : NaN;
	let end = m && m[2] !== '' ? Number(m[2]) : bytes.length - 1;
	if (m && m[1] === '' && m[2] !== '') {
		start = Math.max(0, bytes.length - Number(m[2]));
		end = bytes.length - 1;
	}
	if (!m || Number.isNaN(start) || start >= bytes.length || end < start) {
		reply.removeHeader('Accept-Ranges');
		return v2Error(reply, 502, 'upstream_error', `The upstream refused the range ${range}: fetch the whole content instead.`);
	}
	end = Math.min(end, bytes.length - 1);
	return reply
		.code(206)
		.header('Content-Range', `bytes ${start}-${end}/${bytes.length}`)
		.send(bytes.subarray(start, end + 1));
}
