import { describe, expect, it } from 'vitest';
import type { V2Job, V2Output } from '../wire/workflow-v2';
import { corsAdvice, v2ErrorOf } from './v2-errors';
import { historyOf, jobStateOf, serverEventsOf, webLink } from './v2-job-mapping';
import { newWorkflowRun, type WorkflowRun } from './run-record';
import { applyHistory } from './run-reducer';

const fresh = (): WorkflowRun => ({
	...newWorkflowRun({ id: 'r', profileId: 'p', title: 't', workflowId: null, prompt: {}, seeds: {}, partner: false, now: 0 }),
	promptId: 'j1',
	status: 'running'
});

const output: V2Output = {
	node_id: '9',
	name: 'a.png',
	type: 'image',
	content_type: 'image/png',
	size_bytes: 0,
	id: 'out.a-b',
	hash: null,
	url: '',
	url_expires_at: ''
};
const job = (over: Partial<V2Job>): V2Job => ({
	id: 'j1',
	status: 'succeeded',
	created_at: '',
	started_at: null,
	completed_at: null,
	expires_at: '',
	queue_position: null,
	progress: null,
	outputs: [output],
	error: null,
	urls: { self: 's', events: 'e', cancel: 'c' },
	...over
});

describe('a v2 job in the reducer’s terms', () => {
	it.each([
		['queued', 'pending'],
		['running', 'in_progress'],
		['canceling', 'in_progress'],
		['succeeded', 'completed'],
		['canceled', 'cancelled'],
		['failed', 'failed'],
		['expired', 'failed']
	] as const)('%s reads as %s (canceling is never reported as done)', (status, state) => {
		expect(jobStateOf(status)).toBe(state);
	});

	it('outputs become history outputs referenced by asset id', () => {
		expect(historyOf(job({})).outputs['9']).toEqual({ images: [{ filename: 'out.a-b', subfolder: '', type: 'output' }] });
	});

	it('an output keeps the link the service gave and until when it works; a renewed link replaces an older one', () => {
		const at = (expiresAt: string) =>
			job({ outputs: [{ ...output, url: 'http://h/api/v2/assets/out.a-b/content', url_expires_at: expiresAt }] });
		const first = historyOf(at('2026-11-24T10:05:00.000001+00:00'));
		expect(first.outputs['9']?.images?.[0]?.link).toEqual({
			url: 'http://h/api/v2/assets/out.a-b/content',
			expiresAt: '2026-11-24T10:05:00.000001+00:00'
		});
		let run = applyHistory(fresh(), first, 1);
		run = applyHistory(run, historyOf(at('2026-11-24T10:09:00.000001+00:00')), 2);
		expect(run.outputs).toHaveLength(1);
		expect(run.outputs[0]?.ref.link?.expiresAt).toBe('2026-11-24T10:09:00.000001+00:00');
		// An older reading arriving late does not pull the expiry back.
		run = applyHistory(run, first, 3);
		expect(run.outputs[0]?.ref.link?.expiresAt).toBe('2026-11-24T10:09:00.000001+00:00');
	});

	it.each([
		[{ url: 'javascript:alert(1)', expiresAt: '2026-11-24T10:05:00Z' }, null],
		[{ url: 'https://s.example/x', expiresAt: 'soon' }, null],
		[
			{ url: 'https://s.example/x', expiresAt: '2026-11-24T10:05:00Z' },
			{ url: 'https://s.example/x', expiresAt: '2026-11-24T10:05:00Z' }
		]
	])('shows only http(s) links with a readable expiry: %j', (link, shown) => expect(webLink(link)).toEqual(shown));

	it('a failure and an expiry say why', () => {
		const failed = historyOf(
			job({ status: 'failed', error: { code: 'node_execution_error', message: 'boom', node_id: '3', class_type: null, traceback: null } })
		);
		expect(failed.status.messages[0]?.[1]).toMatchObject({
			exception_type: 'node_execution_error',
			exception_message: 'boom',
			node_id: '3'
		});
		const expired = historyOf(job({ status: 'expired', outputs: [] }));
		expect(expired.status.messages[0]?.[1]).toMatchObject({ exception_type: 'JobExpired' });
	});

	it('stream events become the socket events the reducer folds', () => {
		expect(serverEventsOf('j1', { kind: 'status', event: { status: 'running' } })).toEqual([{ type: 'execution_start', promptId: 'j1' }]);
		expect(
			serverEventsOf('j1', {
				kind: 'progress',
				progress: { value: 0.5, nodes_done: 1, nodes_total: 4, current_node: '3', step: 5, steps: 10 }
			})
		).toEqual([
			{ type: 'executing', promptId: 'j1', node: '3' },
			{ type: 'progress', promptId: 'j1', node: '3', value: 5, max: 10 }
		]);
		// The proxy's snapshot (value 1, done = total): the node, not a false percentage.
		expect(serverEventsOf('j1', { kind: 'progress', progress: { value: 1, nodes_done: 2, nodes_total: 2, current_node: '4' } })).toEqual([
			{ type: 'executing', promptId: 'j1', node: '4' }
		]);
		expect(serverEventsOf('j1', { kind: 'output', output })[0]).toMatchObject({ type: 'executed', node: '9' });
	});
});

describe('v2 errors', () => {
	it.each([
		[429, 'queue_full', 'rate-limited'],
		[402, 'insufficient_credits', 'no-credits'],
		[502, 'upstream_unreachable', 'unavailable'],
		[418, 'brand_new_code', 'unknown'],
		[503, 'brand_new_code', 'unavailable']
	])('HTTP %s %s is %s', (status, code, kind) => {
		const error = v2ErrorOf(status, { code, message: code, details: null }, { requestId: 'r1' });
		expect(error).toMatchObject({ kind, status, errorType: code, requestId: 'r1' });
	});

	it('keeps the status of an HTML answer', () => {
		expect(v2ErrorOf(502, null, { detail: 'Bad gateway' })).toMatchObject({ kind: 'server', status: 502, detail: 'Bad gateway' });
	});

	it('names the exact flag and the localhost trap', () => {
		expect(corsAdvice('http://localhost:4173')).toContain('--enable-cors-header http://localhost:4173');
		expect(corsAdvice('http://localhost:4173')).toContain('127.0.0.1');
	});
});
