import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createV2EventReader, progressView, type V2StreamEvent } from './v2-events';

const BASE = 'http://127.0.0.1:8189/api/v2/jobs/j1/events';
const frames = [
	': keepalive\n\n',
	'event: status\ndata: {"status":"running"}\n\n',
	'event: progress\ndata: {"value":0.25,"nodes_done":1,"nodes_total":4,"message":"Sampling — ünï"}\n\n',
	'event: preview\r\ndata: {"node_id":"3","content_type":"image/jpeg","data_base64":"/9j/4AAQ"}\r\n\r\n',
	'event: status\ndata: {"status":"succeeded"}\n\n',
	'event: output\ndata: {"node_id":"9","name":"a.png","type":"image","content_type":"image/png","size_bytes":0,"id":"out.a-b_c","hash":null,"url":"/api/v2/assets/out.a-b_c/content","url_expires_at":"2026-11-24T10:00:00+00:00"}\n\n'
];
const stream = new TextEncoder().encode(frames.join(''));

function readAll(chunks: Uint8Array[]): V2StreamEvent[] {
	const events: V2StreamEvent[] = [];
	const reader = createV2EventReader(BASE, (e) => events.push(e));
	for (const c of chunks) reader.feed(c);
	reader.end();
	return events;
}

describe('v2 event stream', () => {
	it('reads every frame, including an output after the terminal status', () => {
		const events = readAll([stream]);
		expect(events.map((e) => e.kind)).toEqual(['status', 'progress', 'preview', 'status', 'output']);
		const output = events[4];
		expect(output?.kind === 'output' && output.output.url).toBe('http://127.0.0.1:8189/api/v2/assets/out.a-b_c/content');
	});

	it('a log frame whose level or message is an object with its own toString or valueOf is read, not converted (found by the fuzzer)', () => {
		const text =
			'event: log\ndata: {"level":{"valueOf":1},"message":{"toString":"x"}}\n\nevent: log\ndata: {"level":"warn","message":7}\n\n';
		const events = readAll([new TextEncoder().encode(text)]);
		expect(events).toEqual([
			{ kind: 'log', log: { level: 'info', message: '' } },
			{ kind: 'log', log: { level: 'warn', message: '7' } }
		]);
	});

	it('reads the same events however the bytes are split (even inside a UTF-8 character or a CRLF)', () => {
		const whole = readAll([stream]);
		fc.assert(
			fc.property(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 40 }), (cuts) => {
				const points = [0, ...cuts.sort((a, b) => a - b), stream.length];
				const chunks = points.slice(1).map((end, i) => stream.slice(points[i], end));
				expect(readAll(chunks)).toEqual(whole);
			})
		);
	});

	it('counts keep-alives as activity and drops an unfinished frame at the end', () => {
		let activity = 0;
		const events: V2StreamEvent[] = [];
		const reader = createV2EventReader(
			BASE,
			(e) => events.push(e),
			() => activity++
		);
		reader.feed(new TextEncoder().encode(': keepalive\n\n'));
		reader.feed(new TextEncoder().encode('event: status\ndata: {"status":"queu'));
		reader.end();
		expect(activity).toBe(2);
		expect(events).toEqual([]);
	});

	it('keeps unreadable frames as such instead of failing', () => {
		expect(readAll([new TextEncoder().encode('event: progress\ndata: {oops\n\nevent: weird\ndata: 1\n\n')]).map((e) => e.kind)).toEqual([
			'unreadable',
			'unreadable'
		]);
	});
});

describe('progressView', () => {
	it.each([
		[
			'a contract fraction',
			{ value: 0.5, nodes_done: 3, nodes_total: 6 },
			true,
			{ kind: 'fraction', value: 0.5, nodesDone: 3, nodesTotal: 6 }
		],
		['the proxy: value 1 with done = total growing', { value: 1, nodes_done: 2, nodes_total: 2 }, true, { kind: 'nodes', nodesDone: 2 }],
		['a finished job', { value: 1, nodes_done: 6, nodes_total: 6 }, false, { kind: 'fraction', value: 1, nodesDone: 6, nodesTotal: 6 }]
	])('%s', (_, p, running, view) => {
		expect(progressView(p, running)).toEqual(view);
	});
});
