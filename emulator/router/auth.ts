/**
 * Router credentials: the API key (as `X-API-Key` or a Bearer token) or an HS256 JWT the emulator
 * issues through `/__emulator/router/token`. The principal's scope keys idempotency records:
 * the workspace carried by the credential, or the user when it carries none (spec: Authentication 4).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { readCredential } from '../http/credentials';

export const DEMO_WORKSPACE = 'ws_demo';
export const DEMO_USER = 'user_demo';

export interface Principal {
	user: string;
	workspace: string | null;
	/** Idempotency and queue scope: `ws:<id>` or `user:<id>`. */
	scope: string;
}

export interface TokenClaims {
	sub: string;
	ws?: string;
	iat: number;
	exp: number;
}

function principal(user: string, workspace: string | null): Principal {
	return { user, workspace, scope: workspace ? `ws:${workspace}` : `user:${user}` };
}

export class TokenIssuer {
	private readonly secret = randomBytes(32);

	issue(claims: { user: string; workspace: string | null; nowMs: number; lifetimeSeconds: number }): string {
		const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
		const body: TokenClaims = {
			sub: claims.user,
			iat: Math.floor(claims.nowMs / 1000),
			exp: Math.floor(claims.nowMs / 1000) + claims.lifetimeSeconds
		};
		if (claims.workspace) body.ws = claims.workspace;
		const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
		return `${header}.${payload}.${this.sign(`${header}.${payload}`)}`;
	}

	verify(token: string, nowMs: number): TokenClaims | undefined {
		const parts = token.split('.');
		if (parts.length !== 3) return undefined;
		const [header, payload, signature] = parts as [string, string, string];
		const expected = Buffer.from(this.sign(`${header}.${payload}`));
		const given = Buffer.from(signature);
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
		try {
			const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TokenClaims>;
			if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
			if (claims.exp * 1000 <= nowMs) return undefined;
			return claims as TokenClaims;
		} catch {
			return undefined;
		}
	}

	private sign(data: string): string {
		return createHmac('sha256', this.secret).update(data).digest('base64url');
	}
}

export function authenticate(request: FastifyRequest, apiKey: string, tokens: TokenIssuer, nowMs: number): Principal | undefined {
	const credential = readCredential(request);
	if (credential.via === 'none') return undefined;
	if (credential.value === apiKey) return principal(DEMO_USER, DEMO_WORKSPACE);
	if (credential.via !== 'bearer') return undefined;
	const claims = tokens.verify(credential.value, nowMs);
	return claims ? principal(claims.sub, claims.ws ?? null) : undefined;
}
