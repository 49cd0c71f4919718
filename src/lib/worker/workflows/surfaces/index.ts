/**
 * The surface of each profile: which adapter speaks to its server, with the capabilities
 * remembered for it. A new surface (v2, issue 18) is one more adapter chosen here.
 */
import { ok, type Result } from '../../../domain/errors';
import type { PresetId } from '../../../domain/profile';
import type { Connection, WorkerContext } from '../../context';
import { WorkflowClient } from '../workflow-client';
import { CapabilityBook, type SurfaceKind } from './capabilities';
import { CloudV1Surface } from './cloud-v1';
import { LocalComfyUiSurface } from './local-comfyui';
import type { WorkflowSurface } from './surface';

export type { WorkflowSurface } from './surface';

const KIND_OF_PRESET: Record<PresetId, SurfaceKind> = {
	demo: 'cloud-v1',
	cloud: 'cloud-v1',
	'local-comfyui': 'local-comfyui'
};

export function surfaceOf(connection: Connection, book: CapabilityBook): WorkflowSurface {
	const { id, workflowUrl, preset } = connection.profile;
	const kind = KIND_OF_PRESET[preset];
	const capabilities = book.of(id, workflowUrl, kind);
	const learn = (found: Parameters<CapabilityBook['learn']>[3]) => book.learn(id, workflowUrl, kind, found);
	return kind === 'local-comfyui'
		? new LocalComfyUiSurface(connection, capabilities, learn)
		: new CloudV1Surface(connection, capabilities, learn);
}

/**
 * A local ComfyUI's routes differ by version: `GET /api/features` tells a current server (job list,
 * job cancel) from 0.3.64 (a 404 without CORS headers, which has no from-hash either). Asked once per
 * profile and address, before any route that depends on it; an error (offline) leaves it for next time.
 */
async function probe(connection: Connection, book: CapabilityBook): Promise<void> {
	const { id, workflowUrl, preset } = connection.profile;
	const kind = KIND_OF_PRESET[preset];
	if (kind !== 'local-comfyui' || book.probed(id, workflowUrl)) return;
	const current = await new WorkflowClient(connection).features();
	if (!current.ok) return;
	book.record(
		id,
		workflowUrl,
		kind,
		current.value
			? { features: true, jobList: true, jobCancel: true }
			: { features: false, jobList: false, jobCancel: false, fromHash: false }
	);
}

/** The surfaces of the worker's profiles, sharing one book of capabilities. */
export class Surfaces {
	private readonly book = new CapabilityBook();
	private readonly probing = new Map<string, Promise<void>>();
	constructor(private readonly ctx: Pick<WorkerContext, 'connection'>) {}

	async for(profileId: string): Promise<Result<WorkflowSurface>> {
		const connection = await this.ctx.connection(profileId);
		if (!connection.ok) return connection;
		let pending = this.probing.get(profileId);
		if (!pending) {
			pending = probe(connection.value, this.book).finally(() => this.probing.delete(profileId));
			this.probing.set(profileId, pending);
		}
		await pending;
		return ok(surfaceOf(connection.value, this.book));
	}

	/** The socket saw the server restart: its version may have changed, so its routes are probed again. */
	serverRestarted(profileId: string): void {
		this.book.reprobe(profileId);
	}
}
