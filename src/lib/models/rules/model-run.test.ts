import { describe, expect, it } from 'vitest';
import { decideSync, keyExpired, spendOf } from './model-run';
import { controlType, errorWords } from './model-errors';
import { expiryWords, findMedia, urlExpiry } from './model-assets';

describe('what a keyed synchronous call does with an answer', () => {
	it.each([
		[{ status: 200 }, false, 'success'],
		[{ status: 422, errorType: 'invalid_input' }, false, 'field-errors'],
		[{ status: 409, errorType: 'concurrency_limit_exceeded', retryAfterSeconds: 2 }, true, 'retry'],
		[{ status: 409, errorType: 'concurrency_limit_exceeded' }, true, 'failed'],
		[{ status: 504, errorType: 'deadline_exceeded', retryAfterSeconds: 5 }, false, 'retry'],
		[{ status: 504, errorType: 'provider_timeout', retryAfterSeconds: 5 }, false, 'failed'],
		[{ status: 504, errorType: 'deadline_exceeded' }, false, 'failed'],
		[{ status: 409, errorType: 'invalid_input' }, true, 'outcome-unknown'],
		[{ status: 409, errorType: 'invalid_input' }, false, 'outcome-unknown'],
		[{ status: 429, errorType: 'rate_limited', retryAfterSeconds: 10 }, false, 'failed'],
		[{ status: 503, errorType: 'service_unavailable', retryAfterSeconds: 5 }, false, 'failed'],
		[{ status: 500, errorType: 'quantum_flux' }, false, 'failed']
	])('%j (retried %s) → %s', (answer, retried, kind) => {
		void retried;
		expect(decideSync(answer).kind).toBe(kind);
	});

	it('stops retrying a key after its 24-hour retention', () => {
		expect(keyExpired({ keyCreatedAt: 0 }, 24 * 3600 * 1000 - 1)).toBe(false);
		expect(keyExpired({ keyCreatedAt: 0 }, 24 * 3600 * 1000)).toBe(true);
	});
});

describe('error words', () => {
	it('handles an unknown type as internal_error while naming it', () => {
		expect(controlType('quantum_flux')).toBe('internal_error');
		expect(errorWords('quantum_flux')).toContain('"quantum_flux"');
	});
	it('adds the wait to a rate limit and the model charge rule to a policy refusal', () => {
		expect(errorWords('rate_limited', { retryAfterSeconds: 10 })).toContain('wait 10 s');
		expect(errorWords('content_policy_violation', { chargesOnPolicyRejection: 'no' })).toContain('not charged');
		expect(errorWords('content_policy_violation', { chargesOnPolicyRejection: 'per_attempt_review' })).toContain('may be charged');
	});
});

describe('assets', () => {
	it('reads the expiry of GCS V4, AWS V4 and CloudFront-style signed URLs', () => {
		expect(urlExpiry('https://s/o/a.png?X-Goog-Date=20261121T063000Z&X-Goog-Expires=86400&X-Goog-Signature=ab')).toBe(
			Date.UTC(2026, 10, 22, 6, 30)
		);
		expect(urlExpiry('https://s/a.png?X-Amz-Date=20261121T000000Z&X-Amz-Expires=60')).toBe(Date.UTC(2026, 10, 21, 0, 1));
		expect(urlExpiry('https://cdn/a.png?Expires=1795000000&Signature=x')).toBe(1795000000 * 1000);
		expect(urlExpiry('https://cdn/a.png')).toBeUndefined();
		expect(expiryWords(undefined, 0)).toBe('expiry unknown');
		expect(expiryWords(3_600_000 * 2 + 60_000 * 5, 0)).toBe('link expires in 2 h 5 min');
	});

	it('finds asset URLs and inline base64 media in JSON results', () => {
		const found = findMedia({
			images: [{ url: 'https://s/o/h/x.jpg?X-Goog-Date=1', content_type: 'image/jpeg' }],
			video: { url: 'https://s/o/h/clip', content_type: 'image/webp' },
			response: {
				videos: [
					{ bytesBase64Encoded: 'AAAA', mimeType: 'video/mp4' },
					{ gcsUri: 'https://s/o/v.webp', mimeType: 'image/webp' }
				]
			},
			prompt: 'https://example.com is not media',
			seed: 3
		});
		expect(found.map((f) => [f.path, f.source, f.kind])).toEqual([
			['images.0.url', 'url', 'image'],
			['video.url', 'url', 'image'],
			['response.videos.0.bytesBase64Encoded', 'inline', 'video'],
			['response.videos.1.gcsUri', 'url', 'image']
		]);
	});

	it('reads the spend headers as cents', () => {
		const h = new Headers({ 'X-Committed-Spend-Limit': '2000', 'X-Committed-Spend-Current': '3', 'X-Committed-Spend-Remaining': '1997' });
		expect(spendOf((n) => h.get(n), 5)).toEqual({ limitCents: 2000, currentCents: 3, remainingCents: 1997, at: 5 });
		expect(spendOf(() => null, 5)).toBeUndefined();
	});
});
