/**
 * Workflow runs as the page shows them: the records the worker keeps, the latest preview of each
 * run (an object URL, replaced as frames arrive), and object URLs of cached outputs.
 *
 * Each page makes its own and disposes of it when it goes: that drops the subscription and revokes
 * every object URL it made, so a page visited a hundred times holds nothing a hundred times.
 */
import type { StopOutcome } from '$lib/workflows/rules/stop-outcome';
import type { CancelReport } from '$lib/workflows/protocol/api';
import { SvelteMap } from 'svelte/reactivity';
import type { WorkflowRun } from '$lib/workflows/rules/run-record';
import type { AppError, Result } from '$lib/core/protocol/errors';
import { onWorkerEvent, workerApi } from '$lib/core/state/worker-bridge.svelte';

export interface Preview {
	url: string;
	nodeId: string | null;
	at: number;
}

export class WorkflowRunsStore {
	readonly runs = new SvelteMap<string, WorkflowRun>();
	readonly previews = new SvelteMap<string, Preview>();
	/** Previews the socket sent without saying whose they are (two jobs running at once). */
	unattributed = $state<Preview | null>(null);
	private readonly outputUrls = new Map<string, Promise<Result<string>>>();
	loaded = $state(false);
	private unsubscribe: (() => void) | undefined;
	private disposed = false;
	/** Replaced previews wait a moment before they are revoked (see showPreview). */
	private readonly revokeLater = new Map<ReturnType<typeof setTimeout>, string>();

	/** Follows run events and previews without reading the whole history (the Runs list reads the timeline index). */
	listen(): void {
		if (this.unsubscribe || this.disposed) return;
		this.unsubscribe = onWorkerEvent((event) => {
			if (event.type === 'run') this.runs.set(event.run.id, event.run);
			else if (event.type === 'run-deleted') this.runs.delete(event.id);
			else if (event.type === 'preview') this.showPreview(event.runId, event.nodeId, event.mime, event.bytes);
		});
	}

	/** Stops following events and revokes every object URL this store made; for when its page goes. */
	dispose(): void {
		this.disposed = true;
		this.unsubscribe?.();
		this.unsubscribe = undefined;
		for (const [timer, url] of this.revokeLater) {
			clearTimeout(timer);
			URL.revokeObjectURL(url);
		}
		this.revokeLater.clear();
		for (const preview of this.previews.values()) URL.revokeObjectURL(preview.url);
		this.previews.clear();
		if (this.unattributed) URL.revokeObjectURL(this.unattributed.url);
		this.unattributed = null;
		// Outputs still being read are revoked as they arrive (see outputUrl).
		for (const pending of this.outputUrls.values()) void pending.then((r) => r.ok && URL.revokeObjectURL(r.value));
		this.outputUrls.clear();
	}

	/** Reads one run, for its page. */
	async ensure(id: string): Promise<void> {
		this.listen();
		const run = await workerApi().getRun({ id });
		if (run && !this.runs.has(id)) this.runs.set(id, run);
		this.loaded = true;
	}

	private showPreview(runId: string | null, nodeId: string | null, mime: string, bytes: ArrayBuffer): void {
		if (this.disposed) return;
		const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
		const preview = { url, nodeId, at: Date.now() };
		const old = runId ? this.previews.get(runId) : this.unattributed;
		if (runId) this.previews.set(runId, preview);
		else this.unattributed = preview;
		// Revoke after the next frame has painted the new image.
		if (old) {
			const timer = setTimeout(() => {
				this.revokeLater.delete(timer);
				URL.revokeObjectURL(old.url);
			}, 1000);
			this.revokeLater.set(timer, old.url);
		}
	}

	cancel(run: WorkflowRun): Promise<Result<CancelReport>> {
		return workerApi().cancelRuns({ profileId: run.profileId, promptIds: run.promptId ? [run.promptId] : [] });
	}

	/** Cancels the run's job by the best route its server has; the answer says what the server did. */
	stop(run: WorkflowRun): Promise<Result<StopOutcome>> {
		return workerApi().stopRun({ runId: run.id });
	}

	/** Interrupts the run's job on the ComfyUI behind its self-hosted proxy (whose own cancel does not stop jobs). */
	interruptBehind(run: WorkflowRun): Promise<Result<StopOutcome>> {
		return workerApi().stopRun({ runId: run.id, behind: true });
	}

	interrupt(run: WorkflowRun): Promise<Result<void>> {
		return workerApi().interrupt({ profileId: run.profileId, ...(run.promptId ? { promptId: run.promptId } : {}) });
	}

	/** An object URL for a run's output, fetched once and cached by the worker. */
	outputUrl(runId: string, index: number): Promise<Result<string>> {
		return this.objectUrl(`${runId}:${index}`, () => workerApi().output({ runId, index }));
	}

	/** An object URL for a picture in the server's input folder (what a LoadImage node loaded), read once per page. */
	inputImageUrl(profileId: string, name: string): Promise<Result<string>> {
		return this.objectUrl(`input:${profileId}:${name}`, () => workerApi().inputImage({ profileId, name }));
	}

	private objectUrl(key: string, read: () => Promise<Result<Blob>>): Promise<Result<string>> {
		let pending = this.outputUrls.get(key);
		if (!pending) {
			pending = read()
				.then((r): Result<string> => {
					if (!r.ok) return r;
					if (this.disposed) return { ok: false, error: { kind: 'unknown', message: 'The page that asked for this output is gone.' } };
					return { ok: true, value: URL.createObjectURL(r.value) };
				})
				.catch((e: unknown): Result<string> => ({ ok: false, error: { kind: 'unknown', message: String(e) } satisfies AppError }));
			pending.then((r) => {
				if (!r.ok) this.outputUrls.delete(key);
			});
			this.outputUrls.set(key, pending);
		}
		return pending;
	}
}

/** The words for what a cancel did (pages say them; the rules live in `stop-outcome`). */
export { cancelWords, describeStop } from '$lib/workflows/rules/stop-outcome';
