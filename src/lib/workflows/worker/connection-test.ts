/**
 * "Test connection": asks each service what a run will need (node definitions, the live socket,
 * the catalog) and reports per check what answered and what did not, with status and request id.
 */
import { credentialFor } from '../../core/rules/credential';
import type { ConnectionReport, ProbeCheck } from '../../core/protocol/connection-report';
import type { AppError } from '../../core/protocol/errors';
import { readJson } from '../../core/rules/http-response';
import { isV2Preset, scrubToken, workflowSocketUrl, type Profile } from '../../core/rules/profile';
import { isObject, arr } from '../../core/protocol/json';
import { parseServerEvent } from '../protocol/workflow-events';
import type { ConnectionTestDeps } from '../../core/worker/live-link';
import { probeSocket } from './socket-probe';
import { probeJobsV2 } from './connection-test-v2';

function failed(name: ProbeCheck['name'], error: AppError, ms: number): ProbeCheck {
	return { name, ok: false, summary: error.message, error, ms };
}

export async function testConnection(profile: Profile, apiKey: string | undefined, deps: ConnectionTestDeps): Promise<ConnectionReport> {
	if (isV2Preset(profile.preset)) return testV2Connection(profile, apiKey, deps);
	const credential = credentialFor(apiKey, 'x-api-key');
	const workflow: ProbeCheck[] = [];
	// A Cloud profile runs workflows on v2 where its service offers it: say which.
	if (profile.preset === 'cloud') workflow.push(await probeJobsV2(profile, apiKey, deps.fetch, deps.appOrigin ?? ''));

	let started = performance.now();
	const objectInfo = await deps.fetch({ url: `${profile.workflowUrl}/api/object_info`, credential });
	const httpMs = Math.round(performance.now() - started);
	const parsed = objectInfo.ok ? readJson(objectInfo.value, 'workflow') : objectInfo;
	let keyRefused = false;
	if (parsed.ok) {
		const count = isObject(parsed.value) ? Object.keys(parsed.value).length : 0;
		workflow.push({
			name: 'object_info',
			ok: count > 0,
			summary: count > 0 ? `${count} node types available` : 'answered, but lists no node types',
			ms: httpMs
		});
	} else {
		keyRefused = parsed.error.kind === 'unauthorized' || parsed.error.kind === 'forbidden';
		workflow.push(failed('object_info', parsed.error, httpMs));
	}

	if (keyRefused) {
		workflow.push({
			name: 'websocket',
			ok: false,
			skipped: true,
			summary: 'Not tried: the key was refused over HTTP, so the socket would be refused too.',
			ms: 0
		});
	} else {
		const socketUrl = workflowSocketUrl(profile.workflowUrl, deps.clientId, apiKey);
		const probe = await probeSocket(socketUrl);
		if (probe.ok) {
			const event = parseServerEvent(probe.firstMessage);
			const queue =
				event.ok && event.event.type === 'status' && event.event.queueRemaining !== undefined
					? `; ${event.event.queueRemaining} in queue`
					: '';
			workflow.push({ name: 'websocket', ok: true, summary: `live updates connected${queue}`, ms: probe.ms });
		} else {
			const httpWorked = parsed.ok;
			const why =
				probe.reason === 'timeout'
					? 'Live updates connected but said nothing within 5 s.'
					: httpWorked
						? 'Live updates were refused, though the key works for everything else: a proxy in between may not pass them on, or the service refuses this key for them. Runs still work; their progress is checked every few seconds instead.'
						: 'Live updates were refused too.';
			// The wire facts go behind "Details": the close code, and that browsers hide a refused socket's HTTP status.
			const wire =
				probe.reason === 'timeout'
					? 'WebSocket'
					: `WebSocket close code ${probe.code ?? 1006} (browsers do not show the HTTP status of a refused socket)`;
			workflow.push({ name: 'websocket', ok: false, summary: why, detail: `${wire}: ${scrubToken(socketUrl)}`, ms: probe.ms });
		}
	}

	let router: ProbeCheck[] | null = null;
	if (profile.routerUrl) {
		started = performance.now();
		const catalog = await deps.fetch({ url: `${profile.routerUrl}/v2/models?limit=1`, credential });
		const ms = Math.round(performance.now() - started);
		const body = catalog.ok ? readJson(catalog.value, 'router') : catalog;
		if (body.ok) {
			const data = isObject(body.value) ? arr(body.value, 'data') : undefined;
			router = [
				data
					? {
							name: 'catalog',
							ok: true,
							summary: data.length > 0 ? 'catalog answered' : 'catalog answered (first page empty; more may follow)',
							ms
						}
					: { name: 'catalog', ok: false, summary: 'The catalog answer has no "data" list: is this the router address?', ms }
			];
		} else {
			router = [failed('catalog', body.error, ms)];
		}
	}

	return { profileId: profile.id, at: Date.now(), workflow, router };
}

/** Deployment and self-hosted proxy: the v2 jobs API, and the node definitions (the proxy's from the ComfyUI behind it). */
async function testV2Connection(profile: Profile, apiKey: string | undefined, deps: ConnectionTestDeps): Promise<ConnectionReport> {
	const workflow: ProbeCheck[] = [await probeJobsV2(profile, apiKey, deps.fetch, deps.appOrigin ?? '')];
	const proxy = profile.preset === 'self-hosted-proxy';
	const base = proxy ? (profile.comfyUrl ?? '') : profile.workflowUrl;
	const credential = credentialFor(proxy ? undefined : apiKey, 'bearer');
	const started = performance.now();
	const objectInfo = base ? await deps.fetch({ url: `${base}/api/object_info`, credential }) : null;
	const ms = Math.round(performance.now() - started);
	const parsed = objectInfo && (objectInfo.ok ? readJson(objectInfo.value, 'workflow') : objectInfo);
	if (parsed?.ok) {
		const count = isObject(parsed.value) ? Object.keys(parsed.value).length : 0;
		const where = proxy ? ` from the ComfyUI at ${base}` : '';
		workflow.push({ name: 'object_info', ok: count > 0, summary: `${count} node types available${where}`, ms });
	} else if (parsed) {
		const advice =
			proxy && (parsed.error.kind === 'cors' || parsed.error.kind === 'network') && deps.appOrigin
				? {
						...parsed.error,
						message: `The ComfyUI at ${base} did not answer this app: start it with --enable-cors-header ${deps.appOrigin}.`
					}
				: parsed.error;
		workflow.push(failed('object_info', advice, ms));
	}
	return { profileId: profile.id, at: Date.now(), workflow, router: null };
}
