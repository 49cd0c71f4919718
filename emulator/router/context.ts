/** What every router route module receives: the shared state, the router's own state and helpers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorState } from '../state';
import type { StorageService } from '../storage/server';
import type { RouterState } from './router-state';
import type { Principal } from './auth';
import type { CatalogModel } from './catalog';
import { ROUTER_LIMITS } from '../../src/lib/models/protocol/router-api';
import { sendRouterError } from './errors';
import type { CdnService } from './cdn';

export interface RouterContext {
	state: EmulatorState;
	router: RouterState;
	storage: StorageService;
	/** The provider CDN origin (no CORS headers). */
	cdn: CdnService;
}

const principals = new WeakMap<FastifyRequest, Principal>();

export function setPrincipal(request: FastifyRequest, principal: Principal): void {
	principals.set(request, principal);
}

export function principalOf(request: FastifyRequest): Principal {
	const p = principals.get(request);
	if (!p) throw new Error('router: route reached without authentication');
	return p;
}

/** This origin as the caller reached it, for absolute URLs in bodies. */
export function originOf(request: FastifyRequest): string {
	return `${request.protocol}://${request.host}`;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ModelParams {
	provider: string;
	model: string;
}

/**
 * Resolves `{provider}/{model}` to a runnable model the caller may use, or answers the error:
 * 404 model_not_found for anything that names no model, 403 forbidden when not entitled.
 */
export function resolveModel(ctx: RouterContext, params: ModelParams, reply: FastifyReply): CatalogModel | undefined {
	const { provider, model } = params;
	const wellFormed =
		SLUG.test(provider) &&
		SLUG.test(model) &&
		provider.length <= ROUTER_LIMITS.providerSegmentMaxLength &&
		model.length <= ROUTER_LIMITS.modelSegmentMaxLength;
	const found = wellFormed ? ctx.router.catalog.byId.get(`${provider}/${model}`) : undefined;
	if (!found) {
		void sendRouterError(reply, 404, 'model_not_found', `No runnable model "${provider}/${model}".`);
		return undefined;
	}
	if (!found.entitled) {
		void sendRouterError(reply, 403, 'forbidden', `This account is not entitled to ${found.id}.`);
		return undefined;
	}
	return found;
}
