import { describe, expect, it } from 'vitest';
import { backoffDelay, SOCKET_BACKOFF } from './backoff';

describe('socket backoff', () => {
	it('grows exponentially up to the ceiling, with jitter inside the window', () => {
		expect(backoffDelay(0, SOCKET_BACKOFF, 0)).toBe(250);
		expect(backoffDelay(0, SOCKET_BACKOFF, 0.999)).toBeLessThanOrEqual(500);
		expect(backoffDelay(3, SOCKET_BACKOFF, 0.999)).toBeLessThanOrEqual(4000);
		expect(backoffDelay(50, SOCKET_BACKOFF, 0.999)).toBeLessThanOrEqual(30_000);
		expect(backoffDelay(50, SOCKET_BACKOFF, 0)).toBe(250);
	});
});
