/**
 * The v2 adapter against scripted answers: a proxy in front of ComfyUI 0.3.64, whose cancel answers
 * `canceling` while the job runs on to `succeeded` (the emulator's `{upstream: '0.3.64'}` does it too).
 */
import { describe, expect, it } from 'vitest';
import { ok } from '../../../core/protocol/errors';
import type { Profile } from '../../../core/rules/profile';
import type { Connection } from '../../../core/worker/context';
import type { GuardedRequest, GuardedResponse } from '../../../core/worker/guarded-fetch';
import { DEFAULT_CAPABILITIES } from './capabilities';
import { V2Surface } from './v2-surface';

const BASE = 'http://127.0.0.1:8189';
const ID = '3f2b8c1e-6a4d-4e8b-9c1f-2d7e5a9b0c11';

function v2Job(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		id: ID,
		status,
		created_at: '2026-11-24T10:00:00.123456+00:00',
		started_at: null,
		completed_at: null,
		expires_at: '2026-11-25T10:00:00.123456+00:00',
		queue_position: null,
		progress: null,
		outputs: [],
		error: null,
		urls: { self: `/api/v2/jobs/${ID}`, events: `/api/v2/jobs/${ID}/events`, cancel: `/api/v2/jobs/${ID}/cancel` },
		...extra
	};
}

type Script = (request: GuardedRequest) => GuardedResponse | Promise<GuardedResponse>;

function answer(status: number, body: unknown, headers: Record<string, string> = {}): GuardedResponse {
	const h = new Headers(headers);
	return { status, header: (n) => h.get(n), body: typeof body === 'string' ? body : JSON.stringify(body) };
}

function scriptedSurface(
	script: Script,
	seen: GuardedRequest[] = [],
	{ key, partnerKey, dialect }: { key?: string; partnerKey?: string; dialect: 'managed' | 'proxy' } = { dialect: 'proxy' }
): V2Surface {
	const profile: Profile = {
		id: 'p1',
		name: dialect,
		preset: dialect === 'proxy' ? 'self-hosted-proxy' : 'cloud',
		workflowUrl: BASE,
		routerUrl: null,
		createdAt: 0,
		updatedAt: 0
	};
	const connection: Connection = {
		profile,
		key,
		...(partnerKey ? { partnerKey } : {}),
		fetch: async (request) => {
			seen.push(request);
			return ok(await script(request));
		},
		upload: async () => ok(answer(500, ''))
	};
	return new V2Surface(connection, { ...DEFAULT_CAPABILITIES.v2 }, () => {}, dialect, dialect === 'proxy' ? 'http://127.0.0.1:8188' : BASE);
}

describe('v2 cancel on a proxy whose ComfyUI lacks job cancel', () => {
	it('a read while the service cancels says canceling, still running', async () => {
		const surface = scriptedSurface(() => answer(200, v2Job('canceling')));
		const read = await surface.read({ promptId: ID });
		expect(read.ok && read.value).toEqual({ kind: 'status', state: 'in_progress', history: null, canceling: true });
	});

	it('a cancel answered canceling and then succeeded is reported as finished first, never as cancelled', async () => {
		const reads = ['canceling', 'canceling', 'succeeded'];
		const surface = scriptedSurface((request) =>
			request.method === 'POST' ? answer(200, v2Job('canceling')) : answer(200, v2Job(reads.shift() ?? 'succeeded'))
		);
		const stop = await surface.stop({ promptId: ID });
		expect(stop.ok && stop.value).toEqual({ kind: 'finished-first' });
	});

	it('a cancel of a queued job answered `queued` says the server kept the job, never that it stops', async () => {
		// 0.3.64: "cancelling a queued job answers `queued` and the job runs later".
		const surface = scriptedSurface(() => answer(200, v2Job('queued', { queue_position: 0 })));
		const stop = await surface.stop({ promptId: ID });
		expect(stop.ok && stop.value).toEqual({ kind: 'still-waiting', via: 'job-cancel' });
	});

	it.each([
		['running', 'interrupted'],
		['queued', 'removed']
	] as const)(
		'a %s job whose cancel comes back canceled at once is reported %s, though the proxy never sets started_at',
		async (was, kind) => {
			const reads = [was, 'canceled'];
			const surface = scriptedSurface((request) =>
				request.method === 'POST' ? answer(200, v2Job('canceled')) : answer(200, v2Job(reads.shift() ?? 'canceled'))
			);
			const stop = await surface.stop({ promptId: ID });
			expect(stop.ok && stop.value).toEqual({ kind, via: 'job-cancel' });
		}
	);

	it('as on the real pair: a cancel answered `canceling`, then read `running`, is a server that does not stop jobs; the ComfyUI behind it is offered', async () => {
		const surface = scriptedSurface((request) =>
			request.method === 'POST' ? answer(200, v2Job('canceling')) : answer(200, v2Job('running'))
		);
		const stop = await surface.stop({ promptId: ID });
		expect(stop.ok && stop.value).toEqual({ kind: 'not-stopped', via: 'job-cancel', behind: 'http://127.0.0.1:8188' });
	});

	it('an interrupt behind the proxy goes to the ComfyUI’s /api/interrupt with the job id, and is read back through the proxy', async () => {
		const seen: GuardedRequest[] = [];
		const reads = ['running', 'canceled'];
		const surface = scriptedSurface(
			(request) => (request.method === 'POST' ? answer(200, '') : answer(200, v2Job(reads.shift() ?? 'canceled'))),
			seen
		);
		const stop = await surface.interruptBehind({ promptId: ID });
		expect(stop.ok && stop.value).toEqual({ kind: 'interrupted', via: 'interrupt-behind' });
		expect(seen[0]).toMatchObject({ url: 'http://127.0.0.1:8188/api/interrupt', method: 'POST', body: JSON.stringify({ prompt_id: ID }) });
	});

	it('an `expired` before the job’s deadline is read again: the proxy says so for one answer as a job finishes', async () => {
		const reads = ['expired', 'succeeded'];
		const surface = scriptedSurface(() =>
			answer(200, v2Job(reads.shift() ?? 'succeeded', { expires_at: '2999-01-01T00:00:00.000000+00:00' }))
		);
		const read = await surface.read({ promptId: ID });
		expect(read.ok && read.value).toMatchObject({ kind: 'status', state: 'completed' });
	});

	it('a cancel still canceling after the checks is reported as stopping', async () => {
		const surface = scriptedSurface(() => answer(200, v2Job('canceling')));
		const stop = await surface.stop({ promptId: ID });
		expect(stop.ok && stop.value).toMatchObject({ kind: 'stopping' });
	}, 10_000);
});

describe('v2 invalid_workflow', () => {
	it.each([
		[
			'ComfyUI’s own node_errors (0.3.64)',
			{
				'3': {
					errors: [
						{
							type: 'value_not_in_list',
							message: 'Value not in list',
							details: "sampler_name: 'x' not in [...]",
							extra_info: { input_name: 'sampler_name' }
						}
					],
					class_type: 'KSampler',
					dependent_outputs: []
				}
			}
		],
		['the contract’s [{field, reason}]', { '3': [{ field: 'sampler_name', reason: "Value not in list: sampler_name: 'x' not in [...]" }] }]
	])('%s: each reason reaches its field once', async (_name, nodeErrors) => {
		const surface = scriptedSurface(() =>
			answer(422, {
				error: { code: 'invalid_workflow', message: 'Prompt outputs failed validation', details: { node_errors: nodeErrors } }
			})
		);
		const sent = await surface.submit({
			prompt: { '3': { class_type: 'KSampler', inputs: {} } },
			promptId: 'ours',
			idempotencyKey: 'k-2',
			clientId: 'c',
			partner: false
		});
		expect(sent.ok).toBe(false);
		if (sent.ok || sent.error.kind !== 'rejected') throw new Error('expected a rejection');
		const [error] = sent.error.nodeErrors['3']!.errors;
		expect(error!.extra_info).toEqual({ input_name: 'sampler_name' });
		// As the form words a problem (workflow-service's problemsOf).
		const shown = error!.details ? `${error!.message}: ${error!.details}` : error!.message;
		expect(shown).toBe("Value not in list: sampler_name: 'x' not in [...]");
	});
});

describe('v2 submit body', () => {
	const prompt = { '1': { class_type: 'StabilityStableImageUltraNode', inputs: { prompt: 'a boat' } } };
	const submit = async (partner: boolean, keys: { key?: string; partnerKey?: string }, dialect: 'managed' | 'proxy') => {
		const seen: GuardedRequest[] = [];
		const surface = scriptedSurface(() => answer(201, v2Job('queued')), seen, { ...keys, dialect });
		const sent = await surface.submit({ prompt, promptId: 'ours', idempotencyKey: 'k-1', clientId: 'c', partner });
		expect(sent.ok).toBe(true);
		const post = seen.find((r) => r.method === 'POST')!;
		return { body: JSON.parse(String(post.body)) as Record<string, unknown>, headers: post.headers, credential: post.credential };
	};

	it('managed: partner nodes get the profile key as extra_data.api_key_comfy_org and nothing else', async () => {
		const { body, headers } = await submit(true, { key: 'the-key' }, 'managed');
		expect(body).toEqual({ workflow: prompt, extra_data: { api_key_comfy_org: 'the-key' } });
		expect(headers).toMatchObject({ 'Idempotency-Key': 'k-1' });
	});

	it('proxy: partner nodes get the Comfy account key, never the proxy token; the token stays the Bearer credential', async () => {
		const { body, credential } = await submit(true, { key: 'proxy-token', partnerKey: 'comfy-account' }, 'proxy');
		expect(body).toEqual({ workflow: prompt, extra_data: { api_key_comfy_org: 'comfy-account' } });
		expect(credential).toEqual({ scheme: 'bearer', key: 'proxy-token' });
	});

	it('proxy: without a Comfy account key no extra_data is sent, even with a token', async () => {
		expect((await submit(true, { key: 'proxy-token' }, 'proxy')).body).toEqual({ workflow: prompt });
		expect((await submit(true, {}, 'proxy')).body).toEqual({ workflow: prompt });
	});

	it.each(['managed', 'proxy'] as const)('%s: a workflow without partner nodes sends no extra_data at all', async (dialect) => {
		expect((await submit(false, { key: 'the-key', partnerKey: 'comfy-account' }, dialect)).body).toEqual({ workflow: prompt });
	});
});
