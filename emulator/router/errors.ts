/** Router error answers: `{detail, error_type}` with `X-Service-Error-Type` mirroring the body. */
import type { FastifyReply } from 'fastify';

export function sendRouterError(
	reply: FastifyReply,
	status: number,
	errorType: string,
	detail: string,
	headers: Record<string, string | number> = {}
): FastifyReply {
	reply.header('X-Service-Error-Type', errorType);
	for (const [k, v] of Object.entries(headers)) reply.header(k, String(v));
	return reply.code(status).send({ detail, error_type: errorType });
}
