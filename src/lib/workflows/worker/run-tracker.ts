/**
 * Follows every open workflow run to its real end, on any surface. Runs only in the leader tab's
 * worker. The socket moves runs live; polling (each surface's `read`: job status, else history and
 * queue on a local runtime) is the source of truth, so a run missed while the socket was down or
 * the phone asleep is caught up. Everything read goes through the pure reducer.
 */
import { isTerminal, type RunError, type WorkflowRun } from '../rules/run-record';
import { applyCanceling, applyHistory, applyJobState, applyServerEvent, explainFailure } from '../rules/run-reducer';
import type { ServerEvent } from '../protocol/workflow-events';
import type { SocketMessage, WorkflowContext } from './socket-message';
import type { RunsRepo } from './runs-repo';
import { Surfaces } from './surfaces';
import { followsJobStreams, type JobHandle, type JobLinks, type JobReading } from './surfaces/surface';
import { V2StreamWatch } from './v2-stream-watch';
import { QueueWatch, type AdoptingTracker } from './queue-watch';
import { onFrame } from './socket-frames';
import { RunPublisher } from './run-publisher';
import { OrphanEvents } from './orphan-events';
import { GONE_FROM_QUEUE, lost, NEVER_ACCEPTED, RESTARTED } from './lost-run';
import { DEFAULT_TIMINGS, type AppTimings } from '../../core/protocol/app-timings';

export interface TrackerHooks {
	/** Called once when a run reaches its end, to fetch and cache its outputs. */
	finished(run: WorkflowRun): void;
	/** The profile's socket greeted us again (a reconnect, perhaps to a restarted server). */
	reconnected?(profileId: string): void;
}

export class RunTracker {
	private readonly open = new Map<string, WorkflowRun>();
	/** How many cancels under way name each prompt id (see `cancelling`). */
	private readonly cancelAsked = new Map<string, number>();
	private readonly publisher: RunPublisher;
	private timer: ReturnType<typeof setInterval> | undefined;
	private polling = false;
	private readonly orphans: OrphanEvents;
	private readonly queueWatch: QueueWatch;
	/** Servers that did not answer the last read: read again at the socket's backoff pace. */
	/** Prompt ids of runs deleted here: their late events must not bring them back as "elsewhere". */
	private readonly deleted = new Set<string>();
	private queueTimer: ReturnType<typeof setInterval> | undefined;
	/** v2 jobs' live streams (one per job, here in the leader); polling stays the truth. */
	private readonly streams = new V2StreamWatch({
		events: (profileId, events) => {
			for (const event of events) this.onEvent(profileId, event, true);
		},
		preview: (jobId, nodeId, mime, bytes) => {
			const run = this.byPrompt(jobId);
			this.ctx.emit({ type: 'preview', runId: run?.id ?? null, nodeId, mime: mime === 'image/png' ? 'image/png' : 'image/jpeg', bytes }, [
				bytes
			]);
		},
		ended: (jobId) => {
			const run = this.byPrompt(jobId);
			if (run) void this.poll(run);
		},
		running: (jobId) => this.byPrompt(jobId)?.status === 'running'
	});
	/** Jobs found open when this worker started (a reload): a stream the page before had may still be open on the server. */
	private readonly foundAtStart = new Set<string>();
	private loadedOnce = false;

	constructor(
		private readonly ctx: WorkflowContext,
		private readonly runs: RunsRepo,
		private readonly hooks: TrackerHooks,
		private readonly now: () => number = Date.now,
		private readonly surfaces: Surfaces = new Surfaces(ctx)
	) {
		this.publisher = new RunPublisher(ctx, runs, now, (runId) => this.open.get(runId));
		this.queueWatch = new QueueWatch(ctx, runs, surfaces, this.adopting(), () => this.timings(), now);
		this.orphans = new OrphanEvents(now, (profileId, promptId) => {
			if (!this.byPrompt(promptId)) void this.queueWatch.adopt(profileId, promptId);
		});
	}

	start(): void {
		this.ctx.onSocketMessage((message) => this.onSocket(message));
		this.ctx.onTabTopic('runs-changed', () => void this.reload());
		void this.reload();
		this.timer ??= setInterval(() => void this.tick(), this.timings().workflowPollMs);
		this.queueTimer ??= setInterval(() => void this.watchQueue(), this.timings().queueWatchMs);
	}

	/** The poll, queue-watch and live-queue intervals (`timings` of the runtime config, else the defaults). */
	private timings(): AppTimings {
		return this.ctx.timings?.() ?? DEFAULT_TIMINGS;
	}

	stop(): void {
		clearInterval(this.timer);
		clearInterval(this.queueTimer);
		this.timer = undefined;
		this.queueTimer = undefined;
	}

	/** Jobs in the active profile's queue that no run here knows: started on another device. */
	watchQueue(): Promise<void> {
		return this.queueWatch.watch();
	}

	async reload(): Promise<void> {
		const first = !this.loadedOnce;
		this.loadedOnce = true;
		for (const run of await this.runs.open()) {
			if (run.promptId && !this.open.has(run.id)) this.open.set(run.id, run);
			if (first && run.promptId && run.jobLinks) this.foundAtStart.add(run.promptId);
		}
		void this.pollAll();
	}

	track(run: WorkflowRun): void {
		if (isTerminal(run.status) || !run.promptId) return;
		this.open.set(run.id, run);
		for (const o of this.orphans.claim(run.promptId)) this.onEvent(o.profileId, o.event);
	}

	/**
	 * The submit was accepted. Its events may already have moved the run further than the answer
	 * knows, so the answer is applied to the newest state rather than replacing it.
	 */
	accepted(run: WorkflowRun, promptId: string, links?: JobLinks): WorkflowRun {
		const latest = this.current(run);
		// A service that names its jobs itself (v2): a stream opened under our own id found nothing.
		const renamed = run.promptId !== null && run.promptId !== promptId;
		if (run.promptId !== null && renamed) this.streams.stop(run.promptId);
		const next = applyJobState(
			{ ...latest, promptId, queuedAt: latest.queuedAt ?? this.now(), ...(links ? { jobLinks: links } : {}) },
			'pending',
			this.now()
		);
		this.track(next); // replays any events that came first, moving the run on
		const newest = this.open.get(run.id) ?? next;
		this.update(newest, true);
		// Read it at once under the service's id (which opens its live stream), not at the next poll.
		if (renamed && !isTerminal(newest.status)) void this.poll(newest);
		return newest;
	}

	/** A cancel was sent and the job still runs: shown as cancelling until its terminal state. */
	markCanceling(run: WorkflowRun): void {
		const current = this.current(run);
		const next = applyCanceling(current);
		if (next !== current) this.update(next, true);
	}

	/**
	 * Jobs this app is asking the server to cancel, until `done` is called: a waiting one that vanishes
	 * from the queue meanwhile was removed by us, so it ends Cancelled, not Lost (a cancel of many jobs
	 * one by one takes long enough for a poll to see the first ones gone).
	 */
	cancelling(promptIds: string[]): { done(): void } {
		for (const id of promptIds) this.cancelAsked.set(id, (this.cancelAsked.get(id) ?? 0) + 1);
		return {
			done: () => {
				for (const id of promptIds) {
					const left = (this.cancelAsked.get(id) ?? 1) - 1;
					if (left > 0) this.cancelAsked.set(id, left);
					else this.cancelAsked.delete(id);
				}
			}
		};
	}

	/** The user's cancel removed the waiting job, and the server's queue confirmed it. */
	confirmCancelled(run: WorkflowRun): void {
		const current = this.current(run);
		if (isTerminal(current.status)) return;
		this.update({ ...current, status: 'cancelled', finishedAt: this.now() }, true);
	}

	/**
	 * The run leaves its server for good, ending here as `status` (a confirmed cancel, or lost), and
	 * saying where a pool sent it instead: one record, one event, so a follower never sees the end
	 * without the move. A run already lost keeps its end and gains the move.
	 */
	handedOver(run: WorkflowRun, end: { status: 'cancelled' | 'lost'; error?: RunError; movedTo?: WorkflowRun['movedTo'] }): WorkflowRun {
		const current = this.current(run);
		const ended = isTerminal(current.status)
			? current
			: end.status === 'lost' && end.error
				? lost(current, this.now(), end.error)
				: { ...current, status: end.status, finishedAt: this.now() };
		const next = end.movedTo ? { ...ended, movedTo: end.movedTo } : ended;
		this.update(next, true);
		return next;
	}

	private readonly lastLiveQueueRead = new Map<string, number>();
	/** When each profile's server last said its queue changed: a job list read before then is out of date. */
	private readonly queueChangedAt = new Map<string, number>();
	/** Profiles whose socket has greeted us once: a later greeting is a reconnect. */
	private readonly greeted = new Set<string>();

	/** The job of a prompt id with the links its service gave (v2), for cancelling it. */
	async handleOf(promptId: string): Promise<JobHandle> {
		const run = this.byPrompt(promptId) ?? (await this.runs.byPromptId(promptId));
		return run?.jobLinks ? { promptId, links: run.jobLinks } : { promptId };
	}

	forget(runId: string, promptId?: string | null): void {
		this.open.delete(runId);
		this.justFinished.delete(runId);
		if (promptId) this.deleted.add(promptId);
	}

	/**
	 * The timer. Polling stays the truth, but while a profile's socket is open its events carry the
	 * news: then one queue read every `liveQueueEveryMs` serves all its open runs, and a run's
	 * history is read only when it left the queue (a local server tells only the submitter) or an
	 * event says it ended. Runs of a profile without an open socket are read every tick, as before.
	 */
	async tick(): Promise<void> {
		if (this.polling || !this.ctx.isLeader() || this.open.size === 0) return;
		this.polling = true;
		try {
			const byProfile = new Map<string, WorkflowRun[]>();
			for (const run of this.open.values()) byProfile.set(run.profileId, [...(byProfile.get(run.profileId) ?? []), run]);
			await Promise.all(
				[...byProfile].map(async ([profileId, runs]) => {
					if (!this.ctx.socketOpen?.(profileId)) return this.pollWithoutSocket(runs);
					if (this.now() - (this.lastLiveQueueRead.get(profileId) ?? 0) < this.timings().liveQueueEveryMs) return;
					this.lastLiveQueueRead.set(profileId, this.now());
					return this.checkQueue(profileId, runs);
				})
			);
		} finally {
			this.polling = false;
		}
	}

	/**
	 * Runs of a profile whose live link is not open, read every tick. While the server answers nothing,
	 * its gate (one per server, shared by every reader) holds these reads back without sending them,
	 * and one probe at the backoff's pace stands for all of them.
	 */
	private async pollWithoutSocket(runs: WorkflowRun[]): Promise<void> {
		await Promise.all(runs.map((run) => this.poll(run)));
	}

	/** One queue read for every open run of a profile; those no longer in it are read in full. */
	private async checkQueue(profileId: string, runs: WorkflowRun[]): Promise<void> {
		// The queue watch's read, when it is recent, serves here too (on a proxy both read the same job list).
		const recent = this.queueWatch.recentList(profileId, this.timings().liveQueueEveryMs / 2, this.queueChangedAt.get(profileId));
		let jobs = recent;
		if (!jobs) {
			const surface = await this.surfaces.for(profileId);
			if (!surface.ok) return;
			const active = await surface.value.activeJobs();
			if (!active.ok) return;
			jobs = active.value;
		}
		const listed = new Map(jobs.map((j) => [j.promptId, j]));
		// A listed run is where the list says: running there moves it on (the proxy's stream never says
		// `running` after `queued`, and a local server tells only the submitter); the rest are read in full.
		for (const run of runs) {
			const job = listed.get(run.promptId!);
			if (!job) continue;
			const current = this.current(run);
			const next = applyJobState(current, job.running ? 'in_progress' : 'pending', this.now());
			if (next !== current) this.update(next, true);
		}
		await Promise.all(runs.filter((run) => !listed.has(run.promptId!)).map((run) => this.poll(run)));
	}

	/** Polls every open run now (after a reconnect, a wake-up, or the socket saying a prompt ended). */
	async pollAll(): Promise<void> {
		if (this.polling || !this.ctx.isLeader() || this.open.size === 0) return;
		this.polling = true;
		try {
			await Promise.all([...this.open.values()].map((run) => this.poll(run)));
		} finally {
			this.polling = false;
		}
	}

	/** Reads one run's job and folds the answer in; false when the server gave no answer. */
	private async poll(run: WorkflowRun): Promise<boolean> {
		const surface = await this.surfaces.for(run.profileId);
		if (!surface.ok) {
			this.update({
				...run,
				status: 'failed',
				error: {
					kind: 'lost',
					title: 'Profile deleted',
					message: 'The profile this run belongs to was deleted, so it can no longer be followed.'
				}
			});
			return true;
		}
		const job: JobHandle = { promptId: run.promptId!, ...(run.jobLinks ? { links: run.jobLinks } : {}) };
		// A v2 job's live stream is opened by the first poll (also after a reload: re-attached by id).
		if (followsJobStreams(surface.value) && this.ctx.isLeader())
			this.streams.watch(surface.value, job, this.foundAtStart.delete(job.promptId) && surface.value.streamsStarve);
		const reading = await surface.value.read(job);
		if (!reading.ok) return false; // offline or a hiccup: the next poll tries again
		this.apply(run, reading.value);
		return true;
	}

	/** Folds one read of a job into its run with the reducer. */
	private apply(run: WorkflowRun, reading: JobReading): void {
		switch (reading.kind) {
			case 'not-found':
				return this.notAccepted(run);
			case 'status': {
				const current = this.current(run);
				const base = reading.canceling ? applyCanceling(current) : current;
				// Terminal by job status: the history, when there is one, is the source of truth (outputs, and how
				// it ended: a job status `cancelled` is also what an interrupted running job reads).
				const told = reading.history ? applyHistory(base, reading.history, this.now()) : base;
				const next = isTerminal(told.status) ? told : applyJobState(told, reading.state, this.now());
				if (!isTerminal(next.status)) return this.update(next);
				return this.update(explainFailure(next), true);
			}
			case 'history': {
				const next = applyHistory(this.current(run), reading.entry, this.now());
				return isTerminal(next.status) ? this.update(explainFailure(next), true) : this.update(next);
			}
			case 'waiting': {
				// Read without a socket (a pool's member that is not the profile in use): the queue says whether it started.
				const current = this.current(run);
				const next = applyJobState(current, reading.running ? 'in_progress' : 'pending', this.now());
				return next === current ? undefined : this.update(next, true);
			}
			case 'vanished': {
				// Neither in the history nor the queue: the server restarted (its history lives in memory), or
				// the job was deleted while it waited. Not a cancel: only a cancel asked for here is one (`cancelled`).
				const current = this.current(run);
				if (current.startedAt === undefined && current.promptId !== null && this.cancelAsked.has(current.promptId))
					return this.update({ ...current, status: 'cancelled', finishedAt: this.now() }, true);
				// A submit may still be in flight: give it longer than its timeout, as for `not-found`.
				const grace = current.status === 'submitting' ? 35_000 : 3000;
				if (this.now() - (current.queuedAt ?? current.createdAt) <= grace) return;
				const reason = current.status === 'submitting' ? NEVER_ACCEPTED : current.startedAt !== undefined ? RESTARTED : GONE_FROM_QUEUE;
				return this.update(lost(current, this.now(), reason), true);
			}
		}
	}

	private notAccepted(run: WorkflowRun): void {
		const current = this.current(run);
		// A submit may still be in flight (here or in another tab): give it longer than its timeout.
		if (this.now() - current.createdAt < 35_000) return;
		this.update(lost(current, this.now(), current.error ?? NEVER_ACCEPTED), true);
	}

	/**
	 * An open run as it is now. Storage lags up to `PERSIST_EVERY_MS` behind the events: a page that
	 * opens mid-burst must read this, or it keeps that older state until the next event, perhaps the run's end.
	 */
	newest(runId: string): WorkflowRun | undefined {
		return this.open.get(runId) ?? this.justFinished.get(runId);
	}

	/** The last runs that ended here, as they ended: their final write may still be on its way to storage. */
	private readonly justFinished = new Map<string, WorkflowRun>();

	/**
	 * A run as it is now, also when it ended while a read of it was on its way: the caller's copy may be
	 * older than the end (a poll that asked at step 3 and was answered after the success).
	 */
	private current(run: WorkflowRun): WorkflowRun {
		return this.newest(run.id) ?? run;
	}

	private onSocket(message: SocketMessage): void {
		if (message.kind === 'event') return this.onEvent(message.profileId, message.event);
		onFrame(this.ctx, message.profileId, message.frame, {
			byPrompt: (promptId) => this.byPrompt(promptId),
			running: (profileId) => [...this.open.values()].filter((r) => r.profileId === profileId && r.status === 'running'),
			update: (run) => this.update(run)
		});
	}

	/** What the queue watch needs of the tracker to hand it the jobs it adopts. */
	private adopting(): AdoptingTracker {
		return {
			knows: (promptId) => this.byPrompt(promptId) !== undefined || this.deleted.has(promptId),
			track: (run) => this.track(run),
			adopted: (run) => this.update(this.open.get(run.id) ?? run, true)
		};
	}

	private byPrompt(promptId: string | undefined): WorkflowRun | undefined {
		if (!promptId) return undefined;
		for (const run of this.open.values()) if (run.promptId === promptId) return run;
		return undefined;
	}

	private onEvent(profileId: string, event: ServerEvent, fromStream = false): void {
		// ComfyUI greets every new socket with a `status` carrying its sid: a reconnect, perhaps to a
		// restarted (or upgraded) server, so its routes are probed again on next use.
		if (event.type === 'status' && event.sid !== undefined) {
			if (this.greeted.has(profileId)) {
				this.surfaces.serverRestarted(profileId);
				this.hooks.reconnected?.(profileId);
			}
			this.greeted.add(profileId);
		}
		// ComfyUI tells every client when its queue changes (a `status` without a sid), though a job's own
		// events go only to the client that sent it: read the queue at the next tick, not up to
		// `liveQueueEveryMs` later, so another client's job is seen to end when it ends.
		if (event.type === 'status' && event.sid === undefined) {
			this.lastLiveQueueRead.delete(profileId);
			this.queueChangedAt.set(profileId, this.now());
		}
		if (event.type === 'status' || event.type === 'feature_flags' || event.type === 'unknown') return;
		const promptId = 'promptId' in event ? event.promptId : undefined;
		let run = this.byPrompt(promptId);
		if (!run && promptId === undefined) {
			const running = [...this.open.values()].filter((r) => r.profileId === profileId && r.status === 'running');
			if (running.length === 1) run = running[0];
		}
		if (!run) {
			if (promptId) this.orphans.keep(profileId, event);
			return;
		}
		// A v2 job is followed by its own stream and `GET urls.self`; the account's v1 socket also
		// tells of it, with v1 file names that are not its assets: only the stream's events count.
		if (run.jobLinks && !fromStream) return;
		const next = applyServerEvent(run, event, this.now());
		if (next === run) return;
		this.update(next, isTerminal(next.status) || next.status !== run.status);
		// The socket said the prompt ended: confirm its real terminal state now.
		if (next.progress.finishing && !run.progress.finishing) void this.poll(next);
	}

	/** Keeps the newest state, writes it to storage at most once a second (at once when it matters), and tells the page. */
	private update(run: WorkflowRun, important = false): void {
		const previous = this.newest(run.id);
		// An ended run stays ended: a state older than its end (a late read, a stale copy) is not news.
		if (previous && isTerminal(previous.status) && !isTerminal(run.status)) return;
		if (isTerminal(run.status)) {
			this.open.delete(run.id);
			this.justFinished.delete(run.id);
			this.justFinished.set(run.id, run);
			if (this.justFinished.size > 20) this.justFinished.delete(this.justFinished.keys().next().value!);
			if (run.promptId) this.streams.stop(run.promptId);
			if (!previous || !isTerminal(previous.status)) this.hooks.finished(run);
		} else {
			this.open.set(run.id, run);
		}
		this.publisher.publish(run, important);
	}
}
