/**
 * Each member's recent run durations, newest first: read once from the timeline, then kept from
 * run events. By member, and by member and workflow ("similar work").
 */
import { TIMELINE_KEY } from '../../core/protocol/storage-keys';
import { readTimelineRecord } from '../../core/rules/timeline-record';
import type { WorkflowRun } from '../../core/protocol/workflow-run';
import type { KeyValueStore } from '../../core/worker/kv-store';

const KEPT_DURATIONS = 10;

export class MemberDurations {
	private durations: Map<string, number[]> | null = null;
	private readonly noted = new Set<string>();

	constructor(private readonly kv: KeyValueStore) {}

	async recent(profileId: string, workflowId: string | null): Promise<number[]> {
		const durations = await this.load();
		const similar = workflowId ? durations.get(durationKey(profileId, workflowId)) : undefined;
		return similar ?? durations.get(durationKey(profileId, null)) ?? [];
	}

	/** A run that succeeded here: its duration, once per run (a run's last events may come more than once). */
	note(run: WorkflowRun): void {
		if (!this.durations || run.startedAt === undefined || run.finishedAt === undefined || run.elsewhere) return;
		const ms = run.finishedAt - run.startedAt;
		if (!(ms > 0) || this.noted.has(run.id)) return;
		this.noted.add(run.id);
		unshift(this.durations, durationKey(run.profileId, null), ms);
		if (run.workflowId) unshift(this.durations, durationKey(run.profileId, run.workflowId), ms);
	}

	private async load(): Promise<Map<string, number[]>> {
		if (this.durations) return this.durations;
		const durations = new Map<string, number[]>();
		const entries = (await this.kv.entries<unknown>(TIMELINE_KEY)).flatMap(([, value]) => readTimelineRecord(value)?.entry ?? []);
		entries.sort((a, b) => b.createdAt - a.createdAt); // newest first
		for (const e of entries)
			if (e.kind === 'workflow' && e.status === 'succeeded' && e.durationMs !== null) {
				push(durations, durationKey(e.profileId, null), e.durationMs);
				if (e.subject) push(durations, durationKey(e.profileId, e.subject), e.durationMs);
			}
		this.durations ??= durations;
		return this.durations;
	}
}

const durationKey = (profileId: string, workflowId: string | null) => `${profileId}\u0000${workflowId ?? ''}`;

function push(map: Map<string, number[]>, key: string, ms: number): void {
	const list = map.get(key) ?? [];
	if (list.length < KEPT_DURATIONS) list.push(ms);
	map.set(key, list);
}

function unshift(map: Map<string, number[]>, key: string, ms: number): void {
	const list = map.get(key) ?? [];
	list.unshift(ms);
	if (list.length > KEPT_DURATIONS) list.length = KEPT_DURATIONS;
	map.set(key, list);
}
