/**
 * The surface of each profile: which adapter speaks to its server, with the capabilities
 * remembered for it. A new surface (v2, issue 18) is one more adapter chosen here.
 */
import { ok, type Result } from '../../../domain/errors';
import type { PresetId } from '../../../domain/profile';
import type { Connection, WorkerContext } from '../../context';
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

/** The surfaces of the worker's profiles, sharing one book of capabilities. */
export class Surfaces {
	private readonly book = new CapabilityBook();

	constructor(private readonly ctx: Pick<WorkerContext, 'connection'>) {}

	async for(profileId: string): Promise<Result<WorkflowSurface>> {
		const connection = await this.ctx.connection(profileId);
		return connection.ok ? ok(surfaceOf(connection.value, this.book)) : connection;
	}
}
