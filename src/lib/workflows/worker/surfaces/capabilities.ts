/**
 * Which routes a workflow server has, per profile: the one place that decides which routes a
 * surface adapter uses. Each surface starts from what its kind is known to have; an answer that
 * shows a route missing (a 404 without a JSON body, or a CORS failure, which is how a local
 * ComfyUI's router 404 reaches the browser) turns its flag off, and the book remembers that for
 * the profile until its address changes. A probe (the connection test, a reconnect after a server
 * restart) can set every flag at once with `record`.
 */
import type { SurfaceKind } from '../../protocol/surface-kind';

export interface SurfaceCapabilities {
	/** `GET /api/job/{id}/status` (spec A). A stock local ComfyUI has none: its history is the state. */
	jobStatus: boolean;
	/** `GET /api/jobs` and `GET /api/jobs/{id}` (newer ComfyUI servers). */
	jobList: boolean;
	/** `POST /api/jobs/{id}/cancel`: interrupts a running job, removes a pending one (newer ComfyUI servers). */
	jobCancel: boolean;
	/** `POST /api/jobs/cancel` with `{job_ids}`: many jobs cancelled in one call (newer ComfyUI servers). */
	batchCancel: boolean;
	/** `POST /api/assets/from-hash`: content the server holds is referenced without sending its bytes. */
	fromHash: boolean;
	/** `POST /api/history` with `{delete: [ids]}`: the server's own history can be deleted (every ComfyUI; spec A shows none for v1). */
	historyDelete: boolean;
}

/** What each kind of surface is known to have before anything is learned. */
export const DEFAULT_CAPABILITIES = {
	'cloud-v1': { jobStatus: true, jobList: false, jobCancel: false, batchCancel: false, fromHash: true, historyDelete: false },
	// No job-status route on any ComfyUI (GUIDE §2); from-hash exists on newer servers and is learned off on older ones.
	'local-comfyui': { jobStatus: false, jobList: false, jobCancel: false, batchCancel: false, fromHash: true, historyDelete: true },
	// The v2 jobs API (issue 18): every job is readable by id, cancellable, and content is offered by hash.
	// No batch cancel and no history delete in the v2 contract: each job is cancelled by its own link.
	v2: { jobStatus: true, jobList: false, jobCancel: true, batchCancel: false, fromHash: true, historyDelete: false }
} as const satisfies Record<SurfaceKind, SurfaceCapabilities>;

export type { SurfaceKind };

/** The capabilities of each profile, remembered for the life of the worker and forgotten when the profile's address changes. */
export class CapabilityBook {
	private readonly byProfile = new Map<string, { address: string; capabilities: SurfaceCapabilities; probed: boolean }>();

	/** The profile's capabilities: what was learned for this address, else its surface's defaults. */
	of(profileId: string, address: string, kind: SurfaceKind): SurfaceCapabilities {
		const known = this.byProfile.get(profileId);
		if (known && known.address === address) return known.capabilities;
		const capabilities = { ...DEFAULT_CAPABILITIES[kind] };
		this.byProfile.set(profileId, { address, capabilities, probed: false });
		return capabilities;
	}

	/** Whether a probe has filled the flags for this address (a connection test, or the first use). */
	probed(profileId: string, address: string): boolean {
		const known = this.byProfile.get(profileId);
		return !!known && known.address === address && known.probed;
	}

	/** A probe's answer: every flag it settles, remembered until the address changes or `reprobe`. */
	record(profileId: string, address: string, kind: SurfaceKind, found: Partial<SurfaceCapabilities>): void {
		this.learn(profileId, address, kind, found);
		this.byProfile.get(profileId)!.probed = true;
	}

	/** The server restarted (it may have been upgraded): probe again on next use. */
	reprobe(profileId: string): void {
		this.byProfile.delete(profileId);
	}

	/** An answer showed what the server has (or lacks): remember it. */
	learn(profileId: string, address: string, kind: SurfaceKind, found: Partial<SurfaceCapabilities>): void {
		Object.assign(this.of(profileId, address, kind), found);
	}
}
