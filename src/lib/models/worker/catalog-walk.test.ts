import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../../core/rules/http-response';
import { ok, type Result } from '../../core/protocol/errors';
import type { GuardedRequest } from '../../core/worker/guarded-fetch';
import { walkCatalog } from './catalog-walk';
import type { RouterClient } from './router-client';

function res(status: number, body: unknown, headers: Record<string, string> = {}): Result<RawResponse> {
	const h = new Headers(headers);
	return ok({ status, header: (n) => h.get(n), body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const entry = (id: string) => ({ id, provider: id.split('/')[0], model: id.split('/')[1], billing: { charges_on_policy_rejection: 'no' } });

function client(answers: Array<Result<RawResponse>>, seen: string[]): RouterClient {
	return {
		profileId: 'p',
		base: 'http://r',
		credential: { scheme: 'x-api-key', key: 'k' },
		origin: 'http://r',
		fetch: async (req: GuardedRequest) => {
			seen.push(req.url);
			const next = answers.shift();
			if (!next) throw new Error('no more answers');
			return next;
		}
	};
}

const hooks = (log: string[]) => ({
	onPage: ({ models, pages }: { models: unknown[]; pages: number }) => log.push(`page ${pages}: ${models.length}`),
	onRetry: (i: { attempt: number; retryInMs: number }) => log.push(`retry ${i.attempt} in ${i.retryInMs}`),
	sleep: async () => {},
	random: () => 0
});

describe('the catalog walk', () => {
	it('keeps going through empty and short pages while has_more, passing the cursor unchanged and encoded', async () => {
		const seen: string[] = [];
		const log: string[] = [];
		const cursor = 'a+b/c=d.e&f';
		const result = await walkCatalog(
			client(
				[
					res(200, { data: [entry('a/1'), entry('a/2')], has_more: true, next_cursor: cursor, limit: 20 }),
					res(200, { data: [], has_more: true, next_cursor: 'x', limit: 20 }),
					res(200, { data: [entry('b/1')], has_more: false, limit: 20 })
				],
				seen
			),
			hooks(log)
		);
		expect(result).toMatchObject({ ok: true, value: { pages: 3 } });
		expect(result.ok && result.value.models.map((m) => m.id)).toEqual(['a/1', 'a/2', 'b/1']);
		expect(new URL(seen[1]!).searchParams.get('cursor')).toBe(cursor);
		expect(seen[1]).toContain('cursor=a%2Bb%2Fc%3Dd.e%26f');
		expect(log).toEqual(['page 1: 2', 'page 2: 2', 'page 3: 3']);
	});

	it('retries a 503 on the same cursor, honouring Retry-After, and never reports an empty catalog', async () => {
		const seen: string[] = [];
		const log: string[] = [];
		const result = await walkCatalog(
			client(
				[
					res(200, { data: [entry('a/1')], has_more: true, next_cursor: 'c1', limit: 20 }),
					res(503, { detail: 'down', error_type: 'service_unavailable' }, { 'Retry-After': '5' }),
					res(200, { data: [entry('a/2')], has_more: false, limit: 20 })
				],
				seen
			),
			hooks(log)
		);
		expect(result.ok).toBe(true);
		expect(log).toContain('retry 1 in 5000');
		expect(new URL(seen[2]!).searchParams.get('cursor')).toBe('c1');
	});

	it('stops on an invalid cursor (400) with the error, never restarting from the first page', async () => {
		const seen: string[] = [];
		const result = await walkCatalog(
			client(
				[
					res(200, { data: [entry('a/1')], has_more: true, next_cursor: 'c1', limit: 20 }),
					res(400, { detail: 'bad cursor', error_type: 'invalid_input' }, { 'X-Service-Request-Id': 'r-9' })
				],
				seen
			),
			hooks([])
		);
		expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', status: 400, requestId: 'r-9' } });
		expect(seen).toHaveLength(2);
		// A catalog page sends no inputs: the words name the page link, never "the inputs marked below".
		const message = result.ok ? '' : result.error.message;
		expect(message).toContain('refused the link to the next page of the catalog');
		expect(message).not.toContain('inputs');
	});

	it('asks for the next page before handing this one on, so merging the entries overlaps the round trip', async () => {
		const log: string[] = [];
		const answers = [
			res(200, { data: [entry('a/1')], has_more: true, next_cursor: 'c1', limit: 20 }),
			res(200, { data: [entry('a/2')], has_more: true, next_cursor: 'c2', limit: 20 }),
			res(200, { data: [entry('a/3')], has_more: false, limit: 20 })
		];
		const answering = client(answers, []);
		const logged: RouterClient = {
			...answering,
			fetch: (req) => {
				log.push(`ask ${new URL(req.url).searchParams.get('cursor') ?? 'first'}`);
				return answering.fetch(req);
			}
		};
		await walkCatalog(logged, hooks(log));
		expect(log).toEqual(['ask first', 'ask c1', 'page 1: 1', 'ask c2', 'page 2: 2', 'page 3: 3']);
	});

	it('refuses a page that says has_more without a cursor', async () => {
		const result = await walkCatalog(client([res(200, { data: [], has_more: true, limit: 20 })], []), hooks([]));
		expect(result).toMatchObject({ ok: false, error: { kind: 'bad-response' } });
	});
});
