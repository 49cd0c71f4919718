/**
 * Opaque page cursors: a position and page number bound to one catalog build, HMAC-signed so a
 * tampered or foreign cursor is refused (400 invalid_input) instead of restarting the walk.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ROUTER_LIMITS } from '../../src/lib/models/protocol/router-api';

export interface CursorValue {
	/** Index in the catalog's listing order of the next entry to serve. */
	position: number;
	/** How many pages were served before this one (drives the occasional short or empty page). */
	page: number;
}

export class CursorCodec {
	/** A new codec per catalog build: cursors of an older build no longer verify. */
	private readonly secret = randomBytes(32);

	encode(value: CursorValue): string {
		const payload = Buffer.from(JSON.stringify({ p: value.position, n: value.page, r: randomBytes(4).toString('hex') })).toString(
			'base64url'
		);
		return `${payload}.${this.mac(payload)}`;
	}

	decode(cursor: string): CursorValue | undefined {
		if (cursor.length < 1 || cursor.length > ROUTER_LIMITS.cursorMaxLength) return undefined;
		const [payload, mac, extra] = cursor.split('.');
		if (!payload || !mac || extra !== undefined) return undefined;
		const expected = Buffer.from(this.mac(payload));
		const given = Buffer.from(mac);
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
		try {
			const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; n?: unknown };
			if (!Number.isInteger(value.p) || !Number.isInteger(value.n)) return undefined;
			return { position: value.p as number, page: value.n as number };
		} catch {
			return undefined;
		}
	}

	private mac(payload: string): string {
		return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 32);
	}
}

/** The page size actually served: default 20, at most 100, zero or negative means the default. */
export function clampLimit(raw: string | undefined): number | undefined {
	if (raw === undefined || raw === '') return ROUTER_LIMITS.defaultPageSize;
	if (!/^[+-]?\d+$/.test(raw.trim())) return undefined;
	const n = Number(raw);
	if (n <= 0) return ROUTER_LIMITS.defaultPageSize;
	return Math.min(n, ROUTER_LIMITS.maxPageSize);
}

/**
 * How many entries page number `page` holds. Every fifth page (from the fourth) is empty and every
 * fourth (from the third) is half full, in every scenario, so clients must keep paging on `has_more`.
 */
export function entriesOnPage(page: number, limit: number): number {
	if (page % 5 === 3) return 0;
	if (page % 4 === 2) return Math.max(1, Math.floor(limit / 2));
	return limit;
}
