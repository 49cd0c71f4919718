/**
 * `Idempotency-Key` records for POST /jobs and POST /assets, per surface and key, kept 24 hours of
 * emulator time from creation. Stripe semantics on the contract's surfaces: the same body replays
 * the recorded answer, another body is 422, a retry while the first call runs is 409. The
 * self-hosted proxy answers any reuse with 422 and never replays.
 */
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface RecordedAnswer {
	status: number;
	body: unknown;
}

interface KeyRecord {
	fingerprint: string;
	createdAt: number;
	answer: RecordedAnswer | undefined;
}

export type KeyVerdict =
	| { kind: 'fresh'; settle: (answer: RecordedAnswer | undefined) => void }
	| { kind: 'replay'; answer: RecordedAnswer }
	| { kind: 'in-flight' }
	| { kind: 'reuse' };

export function fingerprintOf(parts: Array<string | Uint8Array>): string {
	const h = createHash('sha256');
	for (const p of parts) h.update(typeof p === 'string' ? `${p.length}:${p}` : p);
	return h.digest('hex');
}

/** JSON with sorted keys, so key order and spacing do not make another body. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}

export class IdempotencyKeys {
	private readonly records = new Map<string, KeyRecord>();

	/**
	 * What a call with this key and body fingerprint gets. `fresh` reserves the key; the caller
	 * settles it with the answer to record (or undefined to release the key: a refusal before work).
	 */
	claim(scope: string, key: string, fingerprint: string, now: number, replays: boolean): KeyVerdict {
		const id = `${scope}\u0000${key}`;
		const existing = this.records.get(id);
		if (existing && now - existing.createdAt < IDEMPOTENCY_RETENTION_MS) {
			if (!replays || existing.fingerprint !== fingerprint) return { kind: 'reuse' };
			return existing.answer ? { kind: 'replay', answer: existing.answer } : { kind: 'in-flight' };
		}
		const record: KeyRecord = { fingerprint, createdAt: now, answer: undefined };
		this.records.set(id, record);
		return {
			kind: 'fresh',
			settle: (answer) => {
				if (answer) record.answer = answer;
				else if (this.records.get(id) === record) this.records.delete(id);
			}
		};
	}

	clear(): void {
		this.records.clear();
	}
}
