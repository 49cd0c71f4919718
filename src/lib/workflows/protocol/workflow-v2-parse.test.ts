import { describe, expect, it } from 'vitest';
import { isPlaceholderProgress, parseV2Asset, parseV2Envelope, parseV2Job, parseV2NodeErrors, parseV2Output } from './workflow-v2-parse';

const BASE = 'https://api.example.test/api/v2/jobs';
const HASH = `blake3:${'a'.repeat(64)}`;

const contractJob = {
	id: 'job_01',
	status: 'running',
	created_at: '2026-11-24T10:00:00Z',
	started_at: '2026-11-24T10:00:01Z',
	completed_at: null,
	expires_at: '2026-11-25T10:00:00Z',
	queue_position: null,
	progress: { value: 0.5, nodes_done: 3, nodes_total: 6, current_node: '3', step: 10, steps: 20 },
	outputs: [
		{
			node_id: '9',
			name: 'a.png',
			type: 'image',
			content_type: 'image/png',
			size_bytes: 42,
			id: 'asset_1',
			hash: HASH,
			url: '/api/v2/assets/asset_1/content',
			url_expires_at: '2026-11-24T11:00:00Z'
		}
	],
	error: null,
	metrics: { queue_ms: 4, execution_ms: null },
	urls: { self: '/api/v2/jobs/job_01', events: '/api/v2/jobs/job_01/events', cancel: '/api/v2/jobs/job_01/cancel' }
};

const proxyId = '3f2b8c1e-6a4d-4e8b-9c1f-2d7e5a9b0c11';
const proxyOutputId = 'out.' + 'x-_'.repeat(50);
const proxyJob = {
	id: proxyId,
	status: 'succeeded',
	created_at: '2026-11-24T10:00:00.123456+00:00',
	started_at: null,
	completed_at: null,
	expires_at: '2026-11-25T10:00:00.123456+00:00',
	queue_position: null,
	progress: { value: 0, nodes_done: 0, nodes_total: 0 },
	outputs: [
		{
			node_id: '9',
			name: 'ComfyUI_0001_.png',
			type: 'image',
			content_type: 'image/png',
			size_bytes: 0,
			id: proxyOutputId,
			hash: null,
			url: `http://127.0.0.1:8189/api/v2/assets/${proxyOutputId}/content`,
			url_expires_at: '2026-11-24T10:05:00.000001+00:00'
		}
	],
	error: null,
	urls: { self: `/api/v2/jobs/${proxyId}`, events: `/api/v2/jobs/${proxyId}/events`, cancel: `/api/v2/jobs/${proxyId}/cancel` }
};

describe('parseV2Output', () => {
	it('an output with no name reads as unnamed (labelled by node later), never by its long asset id; an unknown type is a file', () => {
		const o = parseV2Output({ node_id: '9', id: proxyOutputId, type: 'mesh' }, BASE);
		expect(o).toMatchObject({ name: '', type: 'file' });
	});
});

describe('parseV2Job', () => {
	it('reads a contract job and resolves its links against the answer URL', () => {
		const job = parseV2Job(contractJob, BASE);
		expect(job.ok && job.value).toMatchObject({
			id: 'job_01',
			status: 'running',
			progress: { value: 0.5, nodes_done: 3, nodes_total: 6, step: 10, steps: 20, message: null },
			urls: { self: 'https://api.example.test/api/v2/jobs/job_01', cancel: 'https://api.example.test/api/v2/jobs/job_01/cancel' },
			metrics: { queue_ms: 4, execution_ms: null }
		});
		expect(job.ok && job.value.outputs[0]?.url).toBe('https://api.example.test/api/v2/assets/asset_1/content');
	});

	it('reads a proxy job: +00:00 times, null started_at, zero progress, size 0, null hash, long ids', () => {
		const job = parseV2Job(proxyJob, 'http://127.0.0.1:8189/api/v2/jobs/' + proxyId);
		expect(job.ok).toBe(true);
		if (!job.ok) return;
		expect(job.value.created_at).toBe('2026-11-24T10:00:00.123456+00:00');
		expect(job.value.started_at).toBeNull();
		expect(isPlaceholderProgress(job.value.progress)).toBe(true);
		expect(job.value.outputs[0]).toMatchObject({ id: proxyOutputId, size_bytes: 0, hash: null });
		expect(job.value.urls.self).toBe(`http://127.0.0.1:8189/api/v2/jobs/${proxyId}`);
	});

	it('reads a new proxy job with progress: null', () => {
		const job = parseV2Job({ ...proxyJob, status: 'queued', progress: null, outputs: [] }, BASE);
		expect(job.ok && job.value.progress).toBeNull();
	});

	it.each([
		['not an object', []],
		['no id', { ...contractJob, id: undefined }],
		['an unknown status', { ...contractJob, status: 'done' }],
		['an id with a lone surrogate (no URL can carry it)', { ...contractJob, id: '\ud800', urls: {} }],
		['an id with a lone low surrogate', { ...contractJob, id: 'job_\udc00_1' }]
	])('refuses %s', (_, value) => {
		expect(parseV2Job(value as never, BASE).ok).toBe(false);
	});
});

describe('parseV2Asset', () => {
	it.each([
		[
			'contract',
			{
				id: 'asset_1',
				hash: HASH,
				size_bytes: 5,
				content_type: 'image/png',
				file_path: 'a.png',
				created_new: true,
				created_at: '2026-11-24T10:00:00Z',
				url: 'https://cdn.example.test/x',
				url_expires_at: '2026-11-24T11:00:00Z'
			},
			true
		],
		[
			'proxy dedup',
			{
				id: proxyId,
				hash: HASH,
				size_bytes: 5,
				content_type: 'image/png',
				file_path: 'a.png',
				created_new: false,
				created_at: '2026-11-24T10:00:00.5+00:00',
				url: `/api/v2/assets/${proxyId}/content`,
				url_expires_at: '2026-11-24T10:05:00+00:00'
			},
			false
		]
	])('reads a %s asset', (_, value, createdNew) => {
		const asset = parseV2Asset(value, 'http://127.0.0.1:8189/api/v2/assets');
		expect(asset.ok && asset.value.created_new).toBe(createdNew);
	});

	it('reads an asset whose hash is not computed yet', () => {
		const asset = parseV2Asset({ id: 'asset_2', hash: null, size_bytes: 5 }, BASE);
		expect(asset.ok && asset.value.hash).toBeNull();
	});
});

describe('error envelope', () => {
	it('reads the code, message and details; not an envelope is null', () => {
		expect(parseV2Envelope({ error: { code: 'queue_full', message: 'Busy', details: null } })).toEqual({
			code: 'queue_full',
			message: 'Busy',
			details: null
		});
		expect(parseV2Envelope({ detail: 'nope' })).toBeNull();
		expect(parseV2Envelope('<html>')).toBeNull();
	});

	it('reads node errors in both dialects', () => {
		const contract = parseV2NodeErrors({ node_errors: { '3': [{ field: 'steps', reason: 'must be at least 1' }] } });
		expect(contract.get('3')).toEqual([{ field: 'steps', reason: 'must be at least 1' }]);
		const comfy = parseV2NodeErrors({
			node_errors: {
				'3': {
					class_type: 'KSampler',
					errors: [{ message: 'Value smaller than min', details: 'steps: 0', extra_info: { input_name: 'steps' } }]
				}
			}
		});
		expect(comfy.get('3')).toEqual([{ field: 'steps', reason: 'Value smaller than min: steps: 0' }]);
		expect(parseV2NodeErrors({ node_errors: JSON.parse('{"__proto__": [{"field": "x", "reason": "y"}]}') }).get('__proto__')).toHaveLength(
			1
		);
	});
});
