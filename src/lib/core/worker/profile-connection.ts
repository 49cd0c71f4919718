/** A profile with its keys and the fetch and upload limited to its origins: what every request of a feature starts from. */
import { fail, ok, type AppError, type Result } from '../protocol/errors';
import { profileOrigins, takesPartnerKey, type Profile } from '../rules/profile';
import type { ConnectionReport } from '../protocol/connection-report';
import type { TestConnection } from './live-link';
import type { Connection } from './context';
import { createGuardedFetch, type GuardedFetch } from './guarded-fetch';
import { createGuardedUpload } from './guarded-upload';
import type { ProfileRepo } from './profile-repo';
import type { ServerGates } from './server-gate';

export interface GuardEnv {
	appOrigin: string;
	fetchImpl?: typeof fetch;
	/** The shared backoff of each workflow server while it does not answer (absent: no backoff). */
	gates?: ServerGates;
}

/** Until a feature plugs its test in, there is nothing to test. */
const NO_CONNECTION_TEST: TestConnection = async (profile) => ({
	profileId: profile.id,
	at: Date.now(),
	workflow: [],
	router: null
});

export function guardedFetchFor(profile: Pick<Profile, 'workflowUrl' | 'routerUrl'>, env: GuardEnv): GuardedFetch {
	return createGuardedFetch({ allowedOrigins: profileOrigins(profile), appOrigin: env.appOrigin, fetchImpl: env.fetchImpl });
}

/** `reportHealth`: where a link with no socket of its own (v2) says how its last answer went. */
export async function connectionTo(
	repo: ProfileRepo,
	id: string,
	env: GuardEnv,
	reportHealth?: Connection['reportHealth']
): Promise<Result<Connection>> {
	const [profile, key, partnerKey] = await Promise.all([repo.get(id), repo.key(id), repo.partnerKey(id)]);
	if (!profile)
		return fail({ kind: 'invalid-profile', message: 'This profile no longer exists; it may have been deleted.' } satisfies AppError);
	// The workflow servers' reads share one backoff while they do not answer; the router has its own retries.
	const gated = new Set([profile.workflowUrl, profile.comfyUrl].flatMap((base) => (base ? [new URL(base).origin] : [])));
	const gates = env.gates;
	const guard = {
		allowedOrigins: profileOrigins(profile),
		appOrigin: env.appOrigin,
		fetchImpl: env.fetchImpl,
		...(gates ? { gate: (origin: string) => (gated.has(origin) ? gates.for(origin) : undefined) } : {})
	};
	const partner = takesPartnerKey(profile.preset) && partnerKey ? { partnerKey } : {};
	const health = reportHealth ? { reportHealth } : {};
	return ok({ profile, key, ...partner, ...health, fetch: createGuardedFetch(guard), upload: createGuardedUpload(guard) });
}

/** The settings page's connection test of a saved profile, with its saved key. */
export async function testProfileConnection(
	repo: ProfileRepo,
	id: string,
	env: GuardEnv & { probeClientId: string; testConnection?: TestConnection }
): Promise<Result<ConnectionReport>> {
	const profile = await repo.get(id);
	if (!profile) return fail({ kind: 'invalid-profile', message: 'This profile no longer exists.' } satisfies AppError);
	const key = await repo.key(id);
	return ok(
		await (env.testConnection ?? NO_CONNECTION_TEST)(profile, key, {
			fetch: guardedFetchFor(profile, env),
			clientId: env.probeClientId,
			appOrigin: env.appOrigin
		})
	);
}
