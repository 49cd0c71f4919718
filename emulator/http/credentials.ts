/** Reads the credential a request carries, the way both services accept it. */
import type { FastifyRequest } from 'fastify';

export type Credential = { via: 'x-api-key'; value: string } | { via: 'bearer'; value: string } | { via: 'none' };

export function readCredential(request: FastifyRequest): Credential {
	const apiKey = request.headers['x-api-key'];
	// X-API-Key takes precedence when both are sent (router spec, Authentication 2).
	if (typeof apiKey === 'string' && apiKey !== '') return { via: 'x-api-key', value: apiKey };
	const auth = request.headers.authorization;
	if (typeof auth === 'string') {
		const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
		if (match?.[1]) return { via: 'bearer', value: match[1] };
	}
	return { via: 'none' };
}
