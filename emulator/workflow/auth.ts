/**
 * v1 authentication: `X-API-Key`, or `Authorization: Bearer <key>` (as the service's own web client
 * sends), refused in the `x-api-key-only` scenario. The `comfyui-local` scenario has no auth at all.
 */
import type { FastifyRequest } from 'fastify';
import type { EmulatorState } from '../state';
import { readCredential } from '../http/credentials';
import { workflowScenario } from './scenario-rules';

export type AuthResult = { ok: true } | { ok: false; message: string };

export function checkWorkflowAuth(request: FastifyRequest, state: EmulatorState): AuthResult {
	if (workflowScenario(state.scenario).local) return { ok: true };
	const credential = readCredential(request);
	if (credential.via === 'none') return { ok: false, message: 'Missing API key: send it in the X-API-Key header.' };
	if (credential.via === 'bearer' && state.scenario === 'x-api-key-only') {
		return { ok: false, message: 'This service accepts the API key only in the X-API-Key header.' };
	}
	if (credential.value !== state.apiKey) return { ok: false, message: 'Invalid API key.' };
	return { ok: true };
}
