import { describe, expect, it } from 'vitest';
import type { V2Job, V2Output } from '../protocol/workflow-v2';
import type { V2StreamEvent } from '../protocol/v2-events';
import { corsAdvice, v2ErrorOf } from '../protocol/v2-errors';
import { historyOf, jobStateOf, outputLabel, serverEventsOf, webLink } from './v2-job-mapping';
import { newWorkflowRun, type WorkflowRun } from './run-record';
import { applyHistory, applyServerEvent } from './run-reducer';

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

	it('outputs become history outputs referenced by asset id and labelled by their name', () => {
		expect(historyOf(job({})).outputs['9']).toEqual({ images: [{ filename: 'out.a-b', subfolder: '', type: 'output', label: 'a.png' }] });
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
		const expired = historyOf(
			job({ status: 'expired', outputs: [], expires_at: '2026-11-29T02:11:33.637703+00:00' }),
			new Map(),
			Date.parse('2026-11-30T00:00:00Z')
		);
		expect(expired.status.messages[0]?.[1]).toMatchObject({
			exception_type: 'JobExpired',
			exception_message: 'Retention ended at 2026-11-29T02:11:33.637703+00:00.'
		});
		// Before its deadline: the proxy's ComfyUI forgot the job (seen on the real pair after a restart).
		const forgotten = historyOf(
			job({ status: 'expired', outputs: [], expires_at: '2026-11-29T02:11:33.637703+00:00' }),
			new Map(),
			Date.parse('2026-11-28T03:00:00Z')
		);
		expect(forgotten.status.messages[0]?.[1]).toMatchObject({
			exception_type: 'JobExpired',
			exception_message: expect.stringMatching(/^The server no longer knows this job: the ComfyUI behind it restarted/)
		});
	});

	it('stream events become the socket events the reducer folds', () => {
		expect(serverEventsOf('j1', { kind: 'status', event: { status: 'running' } })).toEqual([{ type: 'execution_start', promptId: 'j1' }]);
		expect(
			serverEventsOf('j1', {
				kind: 'progress',
				progress: { value: 0.5, nodes_done: 1, nodes_total: 4, current_node: '3', step: 5, steps: 10 }
			})
		).toEqual([
			{ type: 'execution_start', promptId: 'j1' },
			{ type: 'nodes_counted', promptId: 'j1', done: 1 },
			{ type: 'executing', promptId: 'j1', node: '3' },
			{ type: 'progress', promptId: 'j1', node: '3', value: 5, max: 10 }
		]);
		// The proxy's snapshot (value 1, done = total): the node and the count, not a false percentage.
		expect(serverEventsOf('j1', { kind: 'progress', progress: { value: 1, nodes_done: 2, nodes_total: 2, current_node: '4' } })).toEqual([
			{ type: 'execution_start', promptId: 'j1' },
			{ type: 'nodes_counted', promptId: 'j1', done: 2 },
			{ type: 'executing', promptId: 'j1', node: '4' }
		]);
		expect(serverEventsOf('j1', { kind: 'output', output })[0]).toMatchObject({ type: 'executed', node: '9' });
	});
});

describe('every kind of v2 output reaches the run record', () => {
	const text: V2Output = { ...output, id: 'txt.1', name: 'preview_text', type: 'text', content_type: 'text/plain', size_bytes: 5 };
	const file: V2Output = {
		...output,
		id: 'f.1',
		name: 'model.safetensors',
		type: 'file',
		content_type: 'application/octet-stream',
		size_bytes: 2048
	};
	const latent: V2Output = {
		...output,
		id: 'l.1',
		name: 'latent.latent',
		type: 'latent',
		content_type: 'application/octet-stream',
		size_bytes: 0
	};
	const recorded = (outputs: V2Output[], texts = new Map<string, string>()) => applyHistory(fresh(), historyOf(job({ outputs }), texts), 1);

	it('a video the real proxy types as an image (its content type says video) is a video', () => {
		const mp4: V2Output = { ...output, id: 'v.1', name: 'rb-poster_00001_.mp4', type: 'image', content_type: 'video/mp4' };
		const kinds = new Map(recorded([mp4, output]).outputs.map((o) => [o.ref.label, o.kind]));
		expect(kinds).toEqual(
			new Map([
				['rb-poster_00001_.mp4', 'video'],
				['a.png', 'image']
			])
		);
	});

	it('a text output whose content was read joins the run’s text outputs, named', () => {
		const run = recorded([text], new Map([['txt.1', 'hello']]));
		expect(run.texts).toEqual([{ nodeId: '9', text: 'hello', name: 'preview_text' }]);
		expect(run.outputs).toEqual([]);
	});

	it('a text output whose content could not be read stays a named download', () => {
		const run = recorded([text]);
		expect(run.texts).toBeUndefined();
		expect(run.outputs).toEqual([
			{
				nodeId: '9',
				kind: 'file',
				ref: { filename: 'txt.1', subfolder: '', type: 'output', label: 'preview_text', contentType: 'text/plain', sizeBytes: 5 }
			}
		]);
	});

	it.each([
		['file', file, { label: 'model.safetensors', contentType: 'application/octet-stream', sizeBytes: 2048 }],
		// The proxy reports 0 for a size it does not know: no size is shown rather than "0 B".
		['latent', latent, { label: 'latent.latent', contentType: 'application/octet-stream' }]
	] as const)('a %s output is a download with its name, type and size', (_type, o, shown) => {
		expect(recorded([o]).outputs).toEqual([
			{ nodeId: '9', kind: 'file', ref: { filename: o.id, subfolder: '', type: 'output', ...shown } }
		]);
	});

	it('an output with no name is labelled by its node and its place among that node’s outputs', () => {
		const run = recorded([
			{ ...output, id: 'x1', name: '' },
			{ ...output, id: 'x2', name: '' },
			{ ...output, id: 'y1', node_id: '12', name: '' }
		]);
		expect(run.outputs.map((o) => o.ref.label)).toEqual(['Node 9 #1', 'Node 9 #2', 'Node 12 #1']);
		expect(outputLabel({ name: '', node_id: '3' }, 0)).toBe('Node 3 #1');
		expect(outputLabel({ name: 'clip.mp4', node_id: '3' }, 4)).toBe('clip.mp4');
	});

	it('a streamed text output carries its content and name; the terminal history adds it once', () => {
		const [event] = serverEventsOf('j1', { kind: 'output', output: text }, 0, 'hello');
		let run = applyServerEvent(fresh(), event!, 1);
		run = applyHistory(run, historyOf(job({ outputs: [text] }), new Map([['txt.1', 'hello']])), 2);
		expect(run.texts).toEqual([{ nodeId: '9', text: 'hello', name: 'preview_text' }]);
		expect(run.status).toBe('succeeded');
	});

	it('a streamed file output is a download; a streamed output with no name takes its index', () => {
		const [event] = serverEventsOf('j1', { kind: 'output', output: { ...file, name: '' } }, 2);
		const run = applyServerEvent(fresh(), event!, 1);
		expect(run.outputs).toEqual([
			{
				nodeId: '9',
				kind: 'file',
				ref: {
					filename: 'f.1',
					subfolder: '',
					type: 'output',
					label: 'Node 9 #3',
					contentType: 'application/octet-stream',
					sizeBytes: 2048
				}
			}
		]);
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

/** A chain of 14 nodes (EmptyImage, 12 ImageScale hops, SaveImage), as run on the real proxy in front of ComfyUI 0.3.64. */
function chainPrompt(): WorkflowRun['prompt'] {
	const prompt: WorkflowRun['prompt'] = { '1': { class_type: 'EmptyImage', inputs: {} } };
	for (let i = 2; i <= 14; i++) prompt[String(i)] = { class_type: 'ImageScale', inputs: { image: [String(i - 1), 0] } };
	return prompt;
}

describe('the real proxy’s stream, frame by frame, moves the run', () => {
	// The frames as read from the real pair (`event: <name>\ndata: <compact JSON>\n\n`): a stream opened
	// while the job waited says `queued` and never `running`; progress snapshots carry only counts.
	const frames: Array<[string, V2StreamEvent, { status: string; done: number; current: string | null }]> = [
		[
			'status on connect, while queued',
			{ kind: 'status', event: { status: 'queued', queue_position: null } },
			{ status: 'queued', done: 0, current: null }
		],
		[
			'the placeholder snapshot of a running job',
			{ kind: 'progress', progress: { value: 0, nodes_done: 0, nodes_total: 0 } as never },
			{ status: 'running', done: 0, current: '1' }
		],
		[
			'2 of 2 (the throttle dropped the frame naming node 3)',
			{ kind: 'progress', progress: { value: 1, nodes_done: 2, nodes_total: 2, current_node: null, step: null, steps: null } as never },
			{ status: 'running', done: 2, current: '3' }
		],
		[
			'13 of 13',
			{ kind: 'progress', progress: { value: 1, nodes_done: 13, nodes_total: 13, current_node: null, step: null, steps: null } as never },
			{ status: 'running', done: 13, current: '14' }
		],
		[
			'an older snapshot replayed after a reconnect',
			{ kind: 'progress', progress: { value: 1, nodes_done: 4, nodes_total: 4, current_node: null, step: null, steps: null } as never },
			{ status: 'running', done: 13, current: '14' }
		]
	];
	let run: WorkflowRun = { ...fresh(), status: 'queued', prompt: chainPrompt(), progress: { ...fresh().progress, total: 14 } };
	it.each(frames)('%s', (_name, frame, expected) => {
		for (const event of serverEventsOf('j1', frame)) run = applyServerEvent(run, event, 1);
		expect({ status: run.status, done: run.progress.done.length, current: run.progress.current }).toEqual(expected);
	});
});
