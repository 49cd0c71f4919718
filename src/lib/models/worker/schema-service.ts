/**
 * A model's schema document from the router's own `/openapi.json`, revalidated with its ETag
 * (`If-None-Match`): a 304 reuses the saved copy, and a failure shows what was seen once.
 */
import { appError, fail, ok, type AppError, type Result } from '../../core/protocol/errors';
import { readJson, requestIdOf, responseError } from '../../core/rules/http-response';
import { parseCatalogEntry } from '../rules/model-catalog';
import { withRouterWords } from '../rules/model-errors';
import { isObject, type Json, type JsonObject } from '../../core/protocol/json';
import type { RouterModelListEntry } from '../protocol/router-api';
import type { WorkerContext } from '../../core/worker/context';
import { MODEL_SCHEMA_KEY } from '../../core/protocol/storage-keys';
import type { SchemaView } from '../protocol/api';
import { modelUrl, routerClient } from './router-client';

const SCHEMA_KEY = MODEL_SCHEMA_KEY;
const RECORD_VERSION = 1;

interface SchemaRecord {
	v: number;
	etag: string | null;
	savedAt: number;
	document: JsonObject;
}

function parseRecord(value: unknown): SchemaRecord | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const r = value as Partial<SchemaRecord>;
	if (r.v !== RECORD_VERSION || typeof r.savedAt !== 'number' || !isObject(r.document as Json)) return undefined;
	return { v: RECORD_VERSION, etag: typeof r.etag === 'string' ? r.etag : null, savedAt: r.savedAt, document: r.document as JsonObject };
}

export class SchemaService {
	constructor(
		private readonly ctx: WorkerContext,
		private readonly now: () => number
	) {}

	private key(profileId: string, modelId: string): string {
		return `${SCHEMA_KEY}${profileId}:${modelId}`;
	}

	/**
	 * The saved copy at once when there is one, revalidated in the background (a `model-schema`
	 * event follows when it changed or could not be checked); else a fetch.
	 */
	async schemaFast({ profileId, modelId }: { profileId: string; modelId: string }): Promise<Result<SchemaView>> {
		await this.ctx.ready();
		const saved = parseRecord(await this.ctx.kv.get(this.key(profileId, modelId)));
		if (!saved) return this.schema({ profileId, modelId });
		void this.schema({ profileId, modelId }).then((r) => {
			if (r.ok && r.value.source !== 'not-modified') this.ctx.emit({ type: 'model-schema', profileId, view: r.value });
		});
		return ok({ modelId, document: saved.document, etag: saved.etag, savedAt: saved.savedAt, source: 'saved' });
	}

	async schema({ profileId, modelId }: { profileId: string; modelId: string }): Promise<Result<SchemaView>> {
		await this.ctx.ready();
		const saved = parseRecord(await this.ctx.kv.get(this.key(profileId, modelId)));
		const fromSaved = (error: AppError): Result<SchemaView> =>
			saved
				? ok({ modelId, document: saved.document, etag: saved.etag, savedAt: saved.savedAt, source: 'saved', staleBecause: error })
				: fail(error);
		const client = await routerClient(this.ctx, profileId);
		if (!client.ok) return fromSaved(client.error);
		const headers: Record<string, string> = {};
		if (saved?.etag) headers['If-None-Match'] = saved.etag;
		const res = await client.value.fetch({
			url: modelUrl(client.value.base, modelId, '/openapi.json'),
			headers,
			credential: client.value.credential
		});
		if (!res.ok) return fromSaved(res.error);
		if (res.value.status === 304) {
			if (!saved)
				return fail(
					appError('bad-response', 'The service said the schema is unchanged, but no copy is saved.', {
						status: 304,
						requestId: requestIdOf(res.value)
					})
				);
			const etag = res.value.header('ETag') ?? saved.etag;
			const rec: SchemaRecord = { ...saved, etag, savedAt: this.now() };
			await this.ctx.kv.set(this.key(profileId, modelId), rec);
			return ok({ modelId, document: rec.document, etag, savedAt: rec.savedAt, source: 'not-modified' });
		}
		const json = readJson(res.value, 'router');
		if (!json.ok) return fromSaved(withRouterWords(json.error));
		if (!isObject(json.value))
			return fromSaved(
				appError('bad-response', 'The schema document is not a JSON object.', {
					status: res.value.status,
					requestId: requestIdOf(res.value)
				})
			);
		const rec: SchemaRecord = { v: RECORD_VERSION, etag: res.value.header('ETag'), savedAt: this.now(), document: json.value };
		await this.ctx.kv.set(this.key(profileId, modelId), rec);
		return ok({ modelId, document: rec.document, etag: rec.etag, savedAt: rec.savedAt, source: 'fresh' });
	}

	/** One model's list facts from the detail route (for a page opened before the catalog was walked). */
	async detail({ profileId, modelId }: { profileId: string; modelId: string }): Promise<Result<RouterModelListEntry>> {
		const client = await routerClient(this.ctx, profileId);
		if (!client.ok) return client;
		const res = await client.value.fetch({ url: modelUrl(client.value.base, modelId), credential: client.value.credential });
		if (!res.ok) return res;
		if (res.value.status !== 200) return fail(withRouterWords(responseError(res.value, 'router')));
		const json = readJson(res.value, 'router');
		if (!json.ok) return json;
		const entry = parseCatalogEntry(json.value);
		return entry
			? ok(entry)
			: fail(
					appError('bad-response', 'The model detail lacks its id, provider, model or billing.', {
						status: 200,
						requestId: requestIdOf(res.value)
					})
				);
	}
}
