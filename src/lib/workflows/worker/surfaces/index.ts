/**
 * The surface of each profile: which adapter speaks to its server, with the capabilities
 * remembered for it. Deployment and self-hosted proxy profiles are v2; a Cloud profile uses v2
 * where its service offers it (probed once per profile and address, then remembered) and v1
 * otherwise; the demo profile stays on v1 (the emulator's v1 scenarios). The v2 demo that `npm start`
 * seeds is a Cloud profile on the emulator, whose service answers the probe: it runs on managed v2.
 */
import { credentialFor } from '../../../core/rules/credential';
import { ok, type Result } from '../../../core/protocol/errors';
import type { PresetId } from '../../../core/rules/profile';
import { tryParseJson } from '../../../core/protocol/json';
import { parseV2Envelope } from '../../protocol/workflow-v2-parse';
import type { Connection, WorkerContext } from '../../../core/worker/context';
import { WorkflowClient } from '../workflow-client';
import { CapabilityBook, type SurfaceKind } from './capabilities';
import { CloudV1Surface } from './cloud-v1';
import { LocalComfyUiSurface } from './local-comfyui';
import type { WorkflowSurface } from './surface';
import { V2Surface, type V2Dialect } from './v2-surface';

export type { WorkflowSurface } from './surface';

const V1_KIND_OF_PRESET: Record<PresetId, Exclude<SurfaceKind, 'v2'>> = {
	demo: 'cloud-v1',
	cloud: 'cloud-v1',
	'local-comfyui': 'local-comfyui',
	deployment: 'cloud-v1',
	'self-hosted-proxy': 'local-comfyui'
};

const DIALECT_OF_PRESET: Partial<Record<PresetId, V2Dialect>> = { deployment: 'deployment', 'self-hosted-proxy': 'proxy' };

export function surfaceOf(connection: Connection, book: CapabilityBook, v2: V2Dialect | null = null): WorkflowSurface {
	const { id, workflowUrl, preset } = connection.profile;
	const dialect = DIALECT_OF_PRESET[preset] ?? v2;
	const kind: SurfaceKind = dialect ? 'v2' : V1_KIND_OF_PRESET[preset];
	const capabilities = book.of(id, workflowUrl, kind);
	const learn = (found: Parameters<CapabilityBook['learn']>[3]) => book.learn(id, workflowUrl, kind, found);
	if (dialect) {
		const objectInfoBase = dialect === 'proxy' ? (connection.profile.comfyUrl ?? 'http://127.0.0.1:8188') : workflowUrl;
		return new V2Surface(connection, capabilities, learn, dialect, objectInfoBase);
	}
	return kind === 'local-comfyui'
		? new LocalComfyUiSurface(connection, capabilities, learn)
		: new CloudV1Surface(connection, capabilities, learn);
}

/**
 * A local ComfyUI's routes differ by version: its job list tells a current server (job list, job cancel)
 * from 0.3.64 (a 404 without CORS headers; no from-hash either). Not `/api/features`: the real 0.3.64
 * answers that one with 200. Asked once per profile and address, before any route that depends on it;
 * an error (offline) leaves it for next time.
 */
async function probe(connection: Connection, book: CapabilityBook): Promise<void> {
	const { id, workflowUrl, preset } = connection.profile;
	const kind = V1_KIND_OF_PRESET[preset];
	if (preset !== 'local-comfyui' || book.probed(id, workflowUrl)) return;
	const current = await new WorkflowClient(connection).listsJobs();
	if (!current.ok) return;
	book.record(
		id,
		workflowUrl,
		kind,
		current.value
			? { jobList: true, jobCancel: true, batchCancel: true }
			: { jobList: false, jobCancel: false, batchCancel: false, fromHash: false }
	);
}

const PROBE_RETRY_MS = 15_000;

/** Failures that say nothing about the service's routes: ask again next time. */
const NO_ANSWER: ReadonlySet<string> = new Set(['network', 'timeout', 'local-network', 'aborted', 'cancelled']);

/**
 * Does this Cloud service offer v2? A read of a job that cannot exist: an answer in the v2 error
 * envelope (404 `not_found`, 401) says yes; a 404 without one (or a CORS refusal) says no; no
 * answer, or a 5xx without the envelope (a gateway page while it restarts), is not known yet (null).
 */
export async function probeV2(connection: Connection): Promise<boolean | null> {
	const res = await connection.fetch({
		url: `${connection.profile.workflowUrl}/api/v2/jobs/runboard-probe`,
		credential: credentialFor(connection.key, 'bearer'),
		timeoutMs: 10_000
	});
	if (!res.ok) return NO_ANSWER.has(res.error.kind) ? null : false;
	if (parseV2Envelope(tryParseJson(res.value.body)) !== null || res.value.status === 200) return true;
	return res.value.status >= 500 ? null : false;
}

/** The surfaces of the worker's profiles, sharing one book of capabilities. */
export class Surfaces {
	private readonly book = new CapabilityBook();
	private readonly probing = new Map<string, Promise<void>>();
	/** When a local server last failed to answer its probe, by profile. */
	private readonly probeFailedAt = new Map<string, number>();
	/** Cloud profiles: whether their service offers v2, per profile and address (probed once). */
	private readonly cloudV2 = new Map<string, Promise<boolean | null>>();

	constructor(private readonly ctx: Pick<WorkerContext, 'connection'>) {}

	async for(profileId: string): Promise<Result<WorkflowSurface>> {
		const connection = await this.ctx.connection(profileId);
		if (!connection.ok) return connection;
		let pending = this.probing.get(profileId);
		// A server that did not answer the probe is not asked again before PROBE_RETRY_MS (it was asked before
		// every read while down); its socket's greeting when it is back asks at once (`serverRestarted`).
		const failedAt = this.probeFailedAt.get(profileId);
		if (!pending && (failedAt === undefined || Date.now() - failedAt >= PROBE_RETRY_MS)) {
			const { id, workflowUrl } = connection.value.profile;
			pending = probe(connection.value, this.book).finally(() => {
				this.probing.delete(profileId);
				if (connection.value.profile.preset === 'local-comfyui' && !this.book.probed(id, workflowUrl))
					this.probeFailedAt.set(profileId, Date.now());
				else this.probeFailedAt.delete(profileId);
			});
			this.probing.set(profileId, pending);
		}
		await pending;
		const { preset, workflowUrl } = connection.value.profile;
		let v2: V2Dialect | null = null;
		if (preset === 'cloud') {
			const memo = `${profileId} ${workflowUrl}`;
			let offered = this.cloudV2.get(memo);
			if (!offered) this.cloudV2.set(memo, (offered = probeV2(connection.value)));
			const offers = await offered;
			// No answer (offline): ask again next time rather than remember a guess.
			if (offers === null) this.cloudV2.delete(memo);
			if (offers) v2 = 'managed';
		}
		return ok(surfaceOf(connection.value, this.book, v2));
	}

	/** The socket saw the server restart: its version may have changed, so its routes are probed again. */
	serverRestarted(profileId: string): void {
		this.probeFailedAt.delete(profileId);
		this.book.reprobe(profileId);
	}
}
