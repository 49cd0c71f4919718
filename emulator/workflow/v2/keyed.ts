/** Runs a keyed POST through the idempotency rules of the surface, and holds it (fault) while in flight. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { V2Core, SurfaceState } from './core';
import { v2Error } from './envelope';
import type { RecordedAnswer } from './idempotency';

/** An answer to send; `record: false` releases the key (a refusal before any work: 402, 429). */
export interface Answer extends RecordedAnswer {
	record: boolean;
	headers?: Record<string, string>;
}

export async function keyed(
	core: V2Core,
	surface: SurfaceState,
	request: FastifyRequest,
	reply: FastifyReply,
	fingerprint: string,
	work: () => Promise<Answer>
): Promise<FastifyReply> {
	const header = request.headers['idempotency-key'];
	const key = typeof header === 'string' && header !== '' ? header : undefined;
	const route = request.routeOptions.url ?? request.url;
	const verdict = key
		? core.keys.claim(`${surface.rules.name} ${route}`, key, fingerprint, core.state.now(), surface.rules.replays)
		: undefined;
	if (verdict?.kind === 'reuse')
		return v2Error(
			reply,
			422,
			'idempotency_key_reuse',
			`The Idempotency-Key "${key}" was already used${surface.rules.replays ? ' with another body' : ''}.`
		);
	if (verdict?.kind === 'in-flight') {
		reply.header('Retry-After', '1');
		return v2Error(reply, 409, 'idempotency_conflict', `A call with the Idempotency-Key "${key}" is still in flight: retry later.`);
	}
	if (verdict?.kind === 'replay') {
		return reply.code(verdict.answer.status).header('Idempotency-Replayed', 'true').send(verdict.answer.body);
	}
	const hold = core.state.faults.v2HoldMs;
	if (hold > 0) await sleep(hold);
	let answer: Answer;
	try {
		answer = await work();
	} catch (error) {
		if (verdict?.kind === 'fresh') verdict.settle(undefined);
		throw error;
	}
	if (verdict?.kind === 'fresh') verdict.settle(answer.record ? { status: answer.status, body: answer.body } : undefined);
	if (core.state.faults.v2DropAnswers > 0) {
		// Done and recorded, but the answer never arrives: the client sees a network failure.
		core.state.faults.v2DropAnswers--;
		reply.hijack();
		request.raw.socket.destroy();
		return reply;
	}
	for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
	return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

export function errorAnswer(
	status: number,
	code: string,
	message: string,
	details: Record<string, unknown> | null = null,
	record = true
): Answer {
	return { status, body: { error: { code, message, details } }, record };
}
