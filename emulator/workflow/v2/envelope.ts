/** The v2 error envelope, times and ids, per surface. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { V2ErrorBody } from '../../../src/lib/workflows/protocol/workflow-v2';
import type { SurfaceRules } from './surface';

export function v2Error(
	reply: FastifyReply,
	status: number,
	code: string,
	message: string,
	details: Record<string, unknown> | null = null
): FastifyReply {
	const body: V2ErrorBody = { error: { code, message, details } };
	return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** `Z` with milliseconds (contract), or microseconds and `+00:00` as the Python proxy writes them. */
export function formatTime(rules: SurfaceRules, ms: number): string {
	const iso = new Date(ms).toISOString();
	return rules.plusZeroTimes ? iso.replace(/\.(\d{3})Z$/, '.$1000+00:00') : iso;
}

export function newId(rules: SurfaceRules, kind: 'job' | 'asset'): string {
	return rules.uuidIds ? randomUUID() : `${kind}_${randomBytes(12).toString('hex')}`;
}

/** The proxy's output ids: long opaque tokens with `.`, `-` and `_` (about 150 characters). */
export function opaqueOutputId(): string {
	const part = (n: number) => randomBytes(n).toString('base64url');
	return `out.${part(36)}.${part(36)}-${part(30)}_${part(6)}`;
}
