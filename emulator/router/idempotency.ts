/**
 * Idempotency records (spec: Idempotency rules 1-8), per scope (workspace, else user) and key, kept
 * for the retention period of EMULATOR time from creation; retries do not extend them.
 */
import { createHash } from 'node:crypto';
import { stableStringify } from './stable-json';

/** A complete answer as it can be stored for replay or collection. */
export interface StoredResponse {
	status: number;
	contentType: string;
	headers: Record<string, string>;
	body: Buffer;
	errorType?: string;
	charged: boolean;
	/** Provider-attributed transient failure with no captured success: the key may be released. */
	transient: boolean;
	/**
	 * Emulator time after which a replay would hand out dead links: results left on the provider's
	 * CDN are not hosted by the service, so their key stops replaying when those URLs expire.
	 */
	replayableUntil?: number;
}

export type RecordState =
	| { kind: 'running'; expectedEndMs: number }
	| { kind: 'done'; response: StoredResponse }
	/** Dispatched, but nothing can be replayed: a same-key retry gets 409 invalid_input. */
	| { kind: 'consumed'; reason: string };

export interface IdempotencyRecord {
	scope: string;
	key: string;
	fingerprint: string;
	createdAt: number;
	state: RecordState;
}

/** Counter key of a keyed call in `state.counters.dispatches/charges`. */
export function counterKey(scope: string, idempotencyKey: string): string {
	return `${scope}|${idempotencyKey}`;
}

/** Method, model path, query and body (as canonical JSON, so key order and spacing do not matter). */
export function fingerprint(method: string, url: string, body: unknown): string {
	const u = new URL(url, 'http://router');
	const query = [...u.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return createHash('sha256')
		.update(`${method}\n${u.pathname}\n${JSON.stringify(query)}\n${stableStringify(body)}`)
		.digest('hex');
}

export class IdempotencyStore {
	private readonly records = new Map<string, IdempotencyRecord>();

	constructor(private readonly retentionMs: () => number) {}

	private id(scope: string, key: string): string {
		return `${scope}\u0000${key}`;
	}

	/** The live record for this scope and key; an expired one is forgotten (it neither replays nor blocks). */
	lookup(scope: string, key: string, now: number): IdempotencyRecord | undefined {
		const record = this.records.get(this.id(scope, key));
		if (!record) return undefined;
		if (now - record.createdAt >= this.retentionMs()) {
			this.records.delete(this.id(scope, key));
			return undefined;
		}
		return record;
	}

	create(scope: string, key: string, print: string, now: number, expectedEndMs: number): IdempotencyRecord {
		const record: IdempotencyRecord = { scope, key, fingerprint: print, createdAt: now, state: { kind: 'running', expectedEndMs } };
		this.records.set(this.id(scope, key), record);
		return record;
	}

	release(record: IdempotencyRecord): void {
		if (this.records.get(this.id(record.scope, record.key)) === record) this.records.delete(this.id(record.scope, record.key));
	}

	clear(): void {
		this.records.clear();
	}
}
