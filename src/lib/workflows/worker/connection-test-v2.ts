/**
 * The connection test of a v2 profile (deployment, self-hosted proxy) and the v2 check of a Cloud
 * profile: which surface answered and what it needs. A proxy that refuses this app's origin answers
 * 403 `forbidden_origin` without CORS headers, which the browser reports as a network failure: the
 * check then names the exact `--enable-cors-header` flag to add.
 */
import { credentialFor } from '../../core/rules/credential';
import type { ProbeCheck } from '../../core/protocol/connection-report';
import { appError } from '../../core/protocol/errors';
import { corsAdvice, v2ErrorOf } from '../protocol/v2-errors';
import type { Profile } from '../../core/rules/profile';
import { tryParseJson } from '../../core/protocol/json';
import { parseV2Envelope } from '../protocol/workflow-v2-parse';
import type { GuardedFetch } from '../../core/worker/guarded-fetch';

const SURFACE_NAME: Record<string, string> = {
	cloud: 'the managed service',
	demo: 'the managed service',
	deployment: 'the deployment endpoint',
	'self-hosted-proxy': 'the self-hosted proxy'
};

export async function probeJobsV2(
	profile: Profile,
	apiKey: string | undefined,
	fetch: GuardedFetch,
	appOrigin: string
): Promise<ProbeCheck> {
	const started = performance.now();
	const res = await fetch({
		url: `${profile.workflowUrl}/api/v2/jobs/runboard-connection-test`,
		credential: credentialFor(apiKey, 'bearer'),
		timeoutMs: 10_000
	});
	const ms = Math.round(performance.now() - started);
	const surface = SURFACE_NAME[profile.preset] ?? 'the service';
	const proxy = profile.preset === 'self-hosted-proxy';
	if (!res.ok) {
		if (proxy && (res.error.kind === 'cors' || res.error.kind === 'network')) {
			return {
				name: 'jobs-v2',
				ok: false,
				summary: 'The proxy did not let this app read its answer.',
				error: appError('cors', `${corsAdvice(appOrigin)} (If the proxy is not running, start it first.)`, {
					detail: `The browser reports a refused origin (403 forbidden_origin) as a network failure. This app's origin is ${appOrigin}.`
				}),
				ms
			};
		}
		return { name: 'jobs-v2', ok: false, summary: res.error.message, error: res.error, ms };
	}
	const envelope = parseV2Envelope(tryParseJson(res.value.body));
	if (res.value.status === 404 && envelope) {
		const runs = profile.preset === 'cloud' ? ' Workflow runs use v2.' : '';
		return { name: 'jobs-v2', ok: true, summary: `v2 jobs API answered: ${surface}.${runs}`, ms };
	}
	if (envelope && res.value.status === 403 && envelope.code === 'forbidden_origin')
		return { name: 'jobs-v2', ok: false, summary: corsAdvice(appOrigin), error: appError('cors', corsAdvice(appOrigin)), ms };
	if (envelope) return { name: 'jobs-v2', ok: false, summary: envelope.message, error: v2ErrorOf(res.value.status, envelope), ms };
	if (profile.preset === 'cloud')
		return { name: 'jobs-v2', ok: true, skipped: true, summary: 'This service has no v2 jobs API: workflow runs use v1.', ms };
	return {
		name: 'jobs-v2',
		ok: false,
		summary: `No v2 jobs API at this address (HTTP ${res.value.status}): is this the ${proxy ? 'proxy' : 'deployment'} address?`,
		ms
	};
}
