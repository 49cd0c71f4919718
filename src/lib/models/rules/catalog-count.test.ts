import { describe, expect, it } from 'vitest';
import { catalogCountWords, type CatalogView } from './model-catalog';
import type { AppError } from '../../core/protocol/errors';

const refused = (status: number, errorType?: string): AppError =>
	({ kind: 'http', message: 'x', status, ...(errorType ? { errorType } : {}) }) as unknown as AppError;
const model = { id: 'a/b', provider: 'a', model: 'b', billing: { charges_on_policy_rejection: 'no' } };

describe('the catalog count line', () => {
	it.each([
		{
			name: 'retrying after a 503',
			walk: { kind: 'retrying', pages: 0, attempt: 2, retryInMs: 1000, error: refused(503) },
			models: [],
			want: 'Service unavailable'
		},
		{
			name: 'failed with service_unavailable',
			walk: { kind: 'failed', pages: 0, error: refused(502, 'service_unavailable') },
			models: [],
			want: 'Service unavailable'
		},
		{ name: 'failed otherwise', walk: { kind: 'failed', pages: 0, error: refused(500) }, models: [], want: '0 models' },
		{
			name: 'a 503 with a saved list shown',
			walk: { kind: 'retrying', pages: 0, attempt: 1, retryInMs: 1000, error: refused(503) },
			models: [model],
			want: '1 model'
		},
		{ name: 'done and empty', walk: { kind: 'done', pages: 1, ms: 5 }, models: [], want: '0 models' }
	])('$name', ({ walk, models, want }) => {
		expect(catalogCountWords({ walk, models } as unknown as Pick<CatalogView, 'models' | 'walk'>)).toBe(want);
	});
});
