import { describe, expect, it } from 'vitest';
import { appError } from '../../../core/protocol/errors';
import type { RawResponse } from '../../../core/rules/http-response';
import { linkHealthOf, type Answer } from './v2-http';

const answer = (status: number, code: string | null, message = ''): Answer => ({
	kind: 'answer',
	res: { status, header: () => null, body: '' } as unknown as RawResponse,
	url: 'http://127.0.0.1:8811/api/v2/jobs/x',
	json: undefined,
	envelope: code ? { code, message, details: null } : null
});

describe('what an answer says of the server behind a proxy', () => {
	it.each<[string, Answer, ReturnType<typeof linkHealthOf>]>([
		// As the real proxy answers while its ComfyUI is down (every route but /health).
		[
			'503 upstream_unreachable',
			answer(503, 'upstream_unreachable', 'Could not reach ComfyUI.'),
			{ kind: 'upstream-down', message: 'Could not reach ComfyUI.' }
		],
		[
			'an older proxy’s 502 upstream_unreachable',
			answer(502, 'upstream_unreachable', ''),
			{ kind: 'upstream-down', message: 'The server behind the proxy does not answer.' }
		],
		['a 200', answer(200, null), { kind: 'ok' }],
		['a 404 says nothing of it', answer(404, 'not_found'), null],
		['no answer says nothing of it either', { kind: 'no-answer', error: appError('network', 'offline') }, null]
	])('%s', (_name, a, expected) => {
		expect(linkHealthOf(a)).toEqual(expected);
	});
});
