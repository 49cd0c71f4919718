import { describe, expect, it } from 'vitest';
import {
	decodeErrorType,
	decodeQueueCancel,
	decodeQueueStatus,
	decodeQueueSubmit,
	decodeValidationErrors,
	decodeValidationMessage
} from './router-decode';

const urls = { status_url: 'https://r/s', response_url: 'https://r/r', cancel_url: 'https://r/c' };
const answer = (body: string, headers: Record<string, string> = {}) => {
	const h = new Headers(headers);
	return { header: (n: string) => h.get(n), body };
};

describe('router answers', () => {
	it.each([
		{
			name: 'the header first',
			a: answer('{"error_type":"rate_limited"}', { 'X-Service-Error-Type': 'invalid_input' }),
			type: 'invalid_input'
		},
		{ name: 'the body when the header is hidden', a: answer('{"detail":"x","error_type":"rate_limited"}'), type: 'rate_limited' },
		{ name: 'a new type kept verbatim', a: answer('{"error_type":"quantum_flux"}'), type: 'quantum_flux' },
		{ name: 'nothing from a proxy page', a: answer('<html>502</html>'), type: undefined }
	])('error type: $name', ({ a, type }) => {
		expect(decodeErrorType(a)).toBe(type);
	});

	it.each([
		{ name: 'a whole handle', body: { request_id: 'q', status: 'IN_QUEUE', queue_position: 0, ...urls }, ok: true },
		{ name: 'a handle without a cancel URL', body: { request_id: 'q', status: 'IN_QUEUE', status_url: 'a', response_url: 'b' }, ok: false },
		{ name: 'no request id', body: { status: 'IN_QUEUE', ...urls }, ok: false },
		{ name: 'not JSON', body: 'Bad Gateway', ok: false }
	])('submit: $name', ({ body, ok }) => {
		const decoded = decodeQueueSubmit(typeof body === 'string' ? body : JSON.stringify(body));
		expect(decoded !== undefined).toBe(ok);
		if (ok) expect(decoded).toMatchObject({ request_id: 'q', queue_position: 0, ...urls });
	});

	it.each([
		{ body: '{"status":"IN_QUEUE","queue_position":3}', facts: { status: 'IN_QUEUE', queue_position: 3 } },
		{ body: '{"status":"COMPLETED","error_type":"cancelled"}', facts: { status: 'COMPLETED' } },
		{ body: '{"status":"IN_PROGRESS","queue_position":"1"}', facts: { status: 'IN_PROGRESS' } },
		{ body: 'cut off {"stat', facts: {} }
	])('status $body', ({ body, facts }) => {
		expect(decodeQueueStatus(body)).toEqual(facts);
	});

	it('cancel status', () => {
		expect(decodeQueueCancel('{"request_id":"q","status":"ALREADY_COMPLETED"}')).toBe('ALREADY_COMPLETED');
		expect(decodeQueueCancel('')).toBeUndefined();
	});

	it('validation entries keep loc and msg, and a missing msg still says something', () => {
		const body = JSON.stringify({
			detail: [{ loc: ['body', 'images', 0], msg: 'bad', type: 'x' }, { loc: ['body', { odd: 1 }], type: 'y' }, 'junk']
		});
		expect(decodeValidationErrors(body)).toEqual([
			{ loc: ['body', 'images', 0], msg: 'bad' },
			{ loc: ['body'], msg: 'Rejected.' }
		]);
		expect(decodeValidationErrors('<html>')).toEqual([]);
	});

	it.each([
		{ body: '{"detail":"Prompt too long"}', message: 'Prompt too long' },
		{ body: '{"detail":"  "}', message: undefined },
		{ body: '{"message":"No such image"}', message: 'No such image' },
		{ body: '{"error":"bad size"}', message: 'bad size' },
		{ body: '{"detail":[{"loc":["body","x"],"msg":"m"}]}', message: undefined },
		{ body: '<html>', message: undefined },
		{ body: '"just text"', message: undefined }
	])('a 422 message without fields: $body', ({ body, message }) => {
		expect(decodeValidationMessage(body)).toBe(message);
	});
});
