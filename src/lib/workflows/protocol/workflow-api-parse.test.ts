import { describe, expect, it } from 'vitest';
import type { Json } from '../../core/protocol/json';
import {
	parseCancelled,
	parseFromHashName,
	parseHistory,
	parseJobStatus,
	parseNodeErrors,
	parseQueue,
	parseRejection,
	parseSubmitAccepted
} from './workflow-api-parse';

const image = { filename: 'a.png', subfolder: '', type: 'output' };
const goodEntry = {
	prompt: [3, 'p1', { '1': { class_type: 'SaveImage', inputs: {} } }, { client_id: 'c' }, ['1']],
	outputs: { '9': { images: [image], text: ['hi', 7], animated: [true] } },
	status: { status_str: 'success', completed: true, messages: [['execution_start', { prompt_id: 'p1' }], 'junk', [5, {}]] },
	meta: {}
};

describe('v1 answers parsed into typed values', () => {
	it.each<[string, unknown, unknown]>([
		['a job status', { status: 'in_progress' }, { ok: true, value: 'in_progress' }],
		[
			'an unknown status',
			{ status: 'exploded' },
			{ ok: false, error: { kind: 'bad-response', message: 'Unknown job status "exploded".' } }
		],
		['a status that is not a string', { status: 7 }, { ok: false, error: { kind: 'bad-response' } }],
		['an array for a status', ['completed'], { ok: false, error: { kind: 'bad-response' } }]
	])('job status: %s', (_, body, expected) => expect(parseJobStatus(body as Json)).toMatchObject(expected as object));

	it.each<[string, unknown, unknown]>([
		[
			'a finished entry, junk messages and non-string texts dropped',
			{ p1: goodEntry },
			{
				ok: true,
				value: {
					prompt: [3, 'p1', { '1': { class_type: 'SaveImage', inputs: {} } }, { client_id: 'c' }, ['1']],
					outputs: { '9': { images: [image], text: ['hi'], animated: [true] } },
					status: { status_str: 'success', completed: true, messages: [['execution_start', { prompt_id: 'p1' }]] },
					meta: {}
				}
			}
		],
		['no entry for the job yet', {}, { ok: true, value: null }],
		['an entry without a status', { p1: { outputs: {} } }, { ok: true, value: null }],
		[
			'an unknown verdict',
			{ p1: { ...goodEntry, status: { status_str: 'maybe', completed: true } } },
			{
				ok: false,
				error: { kind: 'bad-response', message: 'Unknown history status "maybe".' }
			}
		],
		['outputs that are a list', { p1: { ...goodEntry, outputs: [1] } }, { ok: false, error: { kind: 'bad-response' } }],
		['a body that is a string', 'oops', { ok: false, error: { kind: 'bad-response' } }],
		[
			'a file ref without a name, and a prototype key',
			{ p1: { ...goodEntry, outputs: { '9': { images: [{ subfolder: 'x' }] }, __proto__: { images: [] } } } },
			{
				ok: true,
				value: { outputs: { '9': { images: [] } } }
			}
		]
	])('history: %s', (_, body, expected) => expect(parseHistory(body as Json, 'p1')).toMatchObject(expected as object));

	it.each<[string, unknown, unknown]>([
		[
			'running and waiting items',
			{ queue_running: [[0, 'a', {}, {}, []]], queue_pending: [[1, 'b', {}, {}, ['9']]] },
			{
				ok: true,
				value: { queue_running: [[0, 'a', {}, {}, []]], queue_pending: [[1, 'b', {}, {}, ['9']]] }
			}
		],
		[
			'items without an id left out',
			{ queue_running: [[0, 5], 'x', null], queue_pending: [] },
			{
				ok: true,
				value: { queue_running: [], queue_pending: [] }
			}
		],
		[
			'a missing list',
			{ queue_running: [] },
			{
				ok: false,
				error: { kind: 'bad-response', message: 'The queue answer has no queue_running / queue_pending lists.' }
			}
		],
		['null', null, { ok: false, error: { kind: 'bad-response' } }]
	])('queue: %s', (_, body, expected) => expect(parseQueue(body as Json)).toMatchObject(expected as object));

	it.each<[string, unknown, unknown]>([
		[
			'an error with details and node errors',
			{
				error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: 'bad seed' },
				node_errors: {
					'3': {
						errors: [{ type: 'value', message: 'seed', details: '', extra_info: { input_name: 'seed' } }, 'junk'],
						class_type: 'KSampler'
					}
				}
			},
			{
				message: 'Prompt outputs failed validation: bad seed',
				nodeErrors: {
					'3': {
						errors: [{ type: 'value', message: 'seed', details: '', extra_info: { input_name: 'seed' } }],
						dependent_outputs: [],
						class_type: 'KSampler'
					}
				}
			}
		],
		['an error that is a string', { error: 'no', node_errors: 'x' }, { message: 'no', nodeErrors: {} }],
		['no error at all', { node_errors: { '1': 5 } }, { message: 'The workflow was rejected.', nodeErrors: {} }],
		['a body that is a list', [1], undefined]
	])('rejection: %s', (_, body, expected) => expect(parseRejection(body as Json)).toEqual(expected));

	it('reads the small answers, and nothing from the wrong shapes', () => {
		expect([parseSubmitAccepted({ prompt_id: 'p1' }), parseSubmitAccepted({ prompt_id: 1 }), parseSubmitAccepted(null)]).toEqual([
			'p1',
			undefined,
			undefined
		]);
		expect([parseCancelled({ cancelled: true }), parseCancelled({ cancelled: 'yes' }), parseCancelled([])]).toEqual([true, false, false]);
		expect([parseFromHashName({ name: 'x.png' }), parseFromHashName({ name: 5 })]).toEqual(['x.png', undefined]);
		expect(parseNodeErrors(undefined)).toEqual({});
	});
});
