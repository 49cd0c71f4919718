import { describe, expect, it } from 'vitest';
import { useRouterEmulator } from './test-helpers';
import { buildCatalog } from './catalog';

const api = useRouterEmulator({ resetEachTest: false });

type Doc = Record<string, unknown> & { components: { schemas: Record<string, Record<string, unknown>> } };

async function doc(id: string): Promise<Doc> {
	const res = await api.get(`/v2/models/${id}/openapi.json`);
	expect(res.status).toBe(200);
	return (await res.json()) as Doc;
}

describe('schema documents', () => {
	it('carry a strong ETag over the served bytes and Cache-Control, and answer 304 to If-None-Match', async () => {
		const res = await api.get('/v2/models/lumen/flux-1/openapi.json');
		const etag = res.headers.get('etag')!;
		expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
		expect(res.headers.get('cache-control')).toBe('private, must-revalidate');
		const bytes = new Uint8Array(await res.arrayBuffer());
		const { createHash } = await import('node:crypto');
		expect(etag).toBe(`"${createHash('sha256').update(bytes).digest('base64url')}"`);
		const again = await api.get('/v2/models/lumen/flux-1/openapi.json', { 'If-None-Match': etag });
		expect(again.status).toBe(304);
		expect(again.headers.get('etag')).toBe(etag);
		expect(again.headers.get('cache-control')).toBe('private, must-revalidate');
		expect(await again.text()).toBe('');
		const listed = await api.get('/v2/models/lumen/flux-1/openapi.json', { 'If-None-Match': `"other", ${etag}` });
		expect(listed.status).toBe(304);
		const weak = await api.get('/v2/models/lumen/flux-1/openapi.json', { 'If-None-Match': `W/${etag}` });
		expect(weak.status).toBe(200);
		const stale = await api.get('/v2/models/lumen/flux-1/openapi.json', { 'If-None-Match': '"stale"' });
		expect(stale.status).toBe(200);
		const other = await api.get('/v2/models/lumen/flux-2/openapi.json');
		expect(other.headers.get('etag')).not.toBe(etag);
	});

	it('answer 500 internal_error under the schema fault, and 404/403 like the detail route', async () => {
		await api.control('/router/faults', { schemaInternalError: true });
		const res = await api.get('/v2/models/lumen/flux-1/openapi.json');
		expect(res.status).toBe(500);
		expect(res.headers.get('x-service-error-type')).toBe('internal_error');
		await api.control('/router/faults/clear');
		expect((await api.get('/v2/models/none/none/openapi.json')).status).toBe(404);
		expect((await api.get('/v2/models/atelier-enterprise/studio-image/openapi.json')).status).toBe(403);
	});

	it('put the input under requestBody and an authored output under 200', async () => {
		const d = await doc('lumen/flux-1-turbo');
		expect(d['openapi']).toBe('3.1.0');
		expect(d['x-service-input-schema-authored']).toBe(true);
		const post = (
			d['paths'] as Record<
				string,
				{
					post: {
						requestBody: { content: Record<string, { schema: { $ref: string } }> };
						responses: Record<string, { content?: Record<string, unknown> }>;
					};
				}
			>
		)['/v2/models/lumen/flux-1-turbo']!.post;
		const inputRef = post.requestBody.content['application/json']!.schema.$ref;
		const input = d.components.schemas[inputRef.split('/').pop()!]!;
		expect(input['required']).toEqual(['prompt']);
		expect(input['x-fal-order-properties']).toContain('image_size');
		const props = input['properties'] as Record<string, Record<string, unknown>>;
		expect(props['image_size']!['anyOf']).toHaveLength(2);
		expect(props['seed']!['type']).toEqual(['integer', 'null']);
		expect(props['num_inference_steps']).toMatchObject({ minimum: 1, maximum: 50, default: 28 });
		expect(props['output_format']!['allOf']).toBeDefined();
		expect(props['prompt']!['examples']).toBeDefined();
		expect(Object.keys(post.responses['200']!.content!)).toEqual(['application/json']);
	});

	it('serve OpenAPI 3.0 documents with nullable and example, and some labelled 3.0 with 3.1 keywords', async () => {
		const d = await doc('stratus/sd-3');
		expect(d['openapi']).toBe('3.0.3');
		const props = d.components.schemas['GenerateRequest']!['properties'] as Record<string, Record<string, unknown>>;
		expect(props['seed']).toMatchObject({ type: 'integer', nullable: true, example: 42 });
		expect(props['cfg_scale']).toMatchObject({ exclusiveMinimum: true, minimum: 0 });
		expect(props['prompt']!['x-order']).toBe(0);
		const text = JSON.stringify(d);
		expect(text).not.toContain('"examples"');
		const mixed = await doc('tidal/wave-1-t2v');
		expect(mixed['openapi']).toBe('3.0.3');
		expect(JSON.stringify(mixed)).toContain('"examples"');
	});

	it('mark unauthored documents and describe their output as */*', async () => {
		const d = await doc('openforge/community-sdxl');
		expect(d['x-service-input-schema-authored']).toBe(false);
		expect(JSON.stringify(d)).toContain('"*/*"');
	});

	it('cover the families: LoRA list, inpainting URIs, video, TTS, LLM JSON, oneOf, allOf', async () => {
		const lora = JSON.stringify(await doc('lumen/flux-1-lora'));
		expect(lora).toContain('"LoraWeight"');
		const inpaint = (await doc('lumen/flux-1-fill')).components.schemas['InpaintingInput']!;
		expect((inpaint['properties'] as Record<string, unknown>)['mask_url']).toMatchObject({ format: 'uri' });
		const video = (await doc('kestrel/kestrel-v1-text-to-video')).components.schemas['VideoInput']!;
		expect((video['properties'] as Record<string, unknown>)['duration']).toMatchObject({ enum: ['5', '10'] });
		expect(JSON.stringify(await doc('sonora/speech-1'))).toContain('audio/wav');
		expect(JSON.stringify(await doc('quill/quill-3'))).toContain('"oneOf"');
		expect(JSON.stringify(await doc('vertex/veo-3'))).toContain('"oneOf"');
		expect(JSON.stringify(await doc('stratus/upscale-fast'))).toContain('"allOf"');
	});

	it('build for every model in the catalog', async () => {
		const entitled = buildCatalog().filter((m) => m.entitled);
		const results = await Promise.all(entitled.map((m) => api.get(`/v2/models/${m.id}/openapi.json`)));
		expect(results.map((r) => r.status)).toEqual(entitled.map(() => 200));
	});
});
