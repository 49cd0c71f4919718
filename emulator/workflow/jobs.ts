/**
 * Job records and the per-account queue: jobs wait while the tier's concurrency is in use, run in
 * submission order, and end `completed`, `failed` or `cancelled`. History and queue shapes are
 * ComfyUI's. `number` and `front` are ignored: the order is first come, first served.
 */
import type {
	ApiPrompt,
	HistoryEntry,
	HistoryMessage,
	JobState,
	NodeUiOutput,
	QueueItem,
	QueueResponse
} from '../../src/lib/workflows/protocol/workflow-api';

export interface Job {
	id: string;
	number: number;
	prompt: ApiPrompt;
	/** extra_data without secrets (the partner key is never echoed in queue or history). */
	extraData: Record<string, unknown>;
	clientId: string | undefined;
	outputsToExecute: string[];
	partnerKeyValid: boolean;
	state: JobState;
	/** Set by interrupt or delete; the runner stops at its next checkpoint. */
	stopRequested: boolean;
	outputs: Record<string, NodeUiOutput>;
	messages: HistoryMessage[];
	/** Whether the job ever reached history (a deleted pending job in the local runtime never does). */
	inHistory: boolean;
	/** The node running now, told to sockets that connect mid-run. */
	currentNode: string | undefined;
}

export const SECRET_EXTRA_DATA_KEYS = ['api_key_service_org', 'api_key_comfy_org', 'auth_token_comfy_org'];

export function withoutSecrets(extra: Record<string, unknown>): Record<string, unknown> {
	const copy = { ...extra };
	for (const key of SECRET_EXTRA_DATA_KEYS) delete copy[key];
	return copy;
}

export class JobBook {
	readonly jobs = new Map<string, Job>();
	private readonly pending: Job[] = [];
	private readonly running = new Set<Job>();
	private counter = 0;

	nextNumber(): number {
		return this.counter++;
	}

	add(job: Job): void {
		this.jobs.set(job.id, job);
		this.pending.push(job);
	}

	/** Pops the jobs that may start now under `concurrency`. */
	startable(concurrency: number): Job[] {
		const started: Job[] = [];
		while (this.running.size < concurrency && this.pending.length > 0) {
			const job = this.pending.shift()!;
			this.running.add(job);
			job.state = 'in_progress';
			started.push(job);
		}
		return started;
	}

	finished(job: Job): void {
		this.running.delete(job);
	}

	/** Removes a pending job from the queue; false when it is not pending. */
	dropPending(id: string): Job | undefined {
		const index = this.pending.findIndex((j) => j.id === id);
		if (index < 0) return undefined;
		return this.pending.splice(index, 1)[0];
	}

	runningJobs(): Job[] {
		return [...this.running];
	}

	pendingJobs(): Job[] {
		return [...this.pending];
	}

	remaining(): number {
		return this.pending.length + this.running.size;
	}

	queue(): QueueResponse {
		return { queue_running: this.runningJobs().map(queueItem), queue_pending: this.pending.map(queueItem) };
	}

	history(job: Job): HistoryEntry {
		const status_str = job.state === 'completed' ? 'success' : job.state === 'cancelled' ? 'cancelled' : 'error';
		const meta: HistoryEntry['meta'] = {};
		for (const id of Object.keys(job.outputs)) meta[id] = { node_id: id, display_node: id, parent_node: null, real_node_id: id };
		return {
			prompt: queueItem(job),
			outputs: job.outputs,
			status: { status_str, completed: job.state === 'completed', messages: job.messages },
			meta
		};
	}

	clear(): void {
		this.jobs.clear();
		this.pending.length = 0;
		this.running.clear();
		this.counter = 0;
	}
}

function queueItem(job: Job): QueueItem {
	return [job.number, job.id, job.prompt, job.extraData, job.outputsToExecute];
}
