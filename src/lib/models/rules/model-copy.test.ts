import { describe, expect, it } from 'vitest';
import { asCurl, asFetch, asPython } from './model-copy';

const body = { prompt: 'it\'s a "red" boat\n', steps: 4 };

describe('copy as code', () => {
	it.each([
		['curl', asCurl, '$ROUTER_API_KEY'],
		['fetch', asFetch, 'process.env.ROUTER_API_KEY'],
		['python', asPython, 'os.environ["ROUTER_API_KEY"]']
	])('%s names the key by an environment variable, addresses the model and carries the body', (_name, make, keyRef) => {
		const text = make('https://router.example/', 'lumen/flux-1', body);
		expect(text).toContain(keyRef);
		expect(text).toContain('https://router.example/v2/models/lumen/flux-1');
		expect(text).toContain('Idempotency-Key');
		expect(text).not.toContain('router.example//');
	});

	it('puts a body that round-trips exactly', () => {
		const js = asFetch('https://r', 'a/b', body);
		const literal = /JSON\.stringify\(([\s\S]*)\)\n\}\);/.exec(js)![1]!;
		expect(JSON.parse(literal)).toEqual(body);
		const py = asPython('https://r', 'a/b', body);
		const pyLiteral = /json\.loads\((.*)\)$/m.exec(py)![1]!;
		expect(JSON.parse(JSON.parse(pyLiteral))).toEqual(body);
	});
});
