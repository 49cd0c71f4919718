/**
 * What a job this installation did not submit looks like, to follow it as a run marked "started
 * elsewhere": its graph (from the service's queue) or its links (a v2 job), and the run itself.
 */
import { newWorkflowRun, type WorkflowRun } from '../rules/run-record';
import { nodeTitle } from '../rules/workflow-import';
import type { ApiPrompt } from '../protocol/workflow-api';
import { TERMINAL_JOB_STATUSES } from '../protocol/workflow-v2';
import type { Surfaces } from './surfaces';
import { followsJobStreams, type JobLinks } from './surfaces/surface';

export interface ForeignJob {
	graph?: ApiPrompt;
	links?: JobLinks;
}

/** The job of a prompt id another device started, or undefined when it is not worth following. */
export async function foreignJob(
	surfaces: Surfaces,
	profileId: string,
	promptId: string,
	prompt?: ApiPrompt
): Promise<ForeignJob | undefined> {
	if (prompt) return { graph: prompt };
	// Only a job the service still lists is worth following; a straggler of a finished one is not.
	const surface = await surfaces.for(profileId);
	const active = surface.ok ? await surface.value.activeJobs() : undefined;
	const job = active?.ok ? active.value.find((j) => j.promptId === promptId) : undefined;
	if (job) return { graph: job.prompt };
	// The managed v2 service lists no jobs (its account's socket tells of them): read the job
	// itself, and follow it by its links, so the socket's v1 file names never become its outputs.
	const v2 = surface.ok && followsJobStreams(surface.value) ? await surface.value.readJob({ promptId }) : undefined;
	if (!v2?.ok || !v2.value || TERMINAL_JOB_STATUSES.includes(v2.value.status)) return undefined;
	return { links: { self: v2.value.urls.self, events: v2.value.urls.events, cancel: v2.value.urls.cancel } };
}

/** A queued run for a job started elsewhere, titled after its output node when its graph is known. */
export function elsewhereRun(profileId: string, promptId: string, { graph, links }: ForeignJob, now: number): WorkflowRun {
	const outputNode = graph ? Object.keys(graph).find((id) => /^Save|^Preview/.test(graph[id]!.class_type)) : undefined;
	return {
		...newWorkflowRun({
			id: crypto.randomUUID(),
			profileId,
			title: graph && outputNode ? `${nodeTitle(graph, outputNode)} (started elsewhere)` : 'Run started elsewhere',
			workflowId: null,
			prompt: graph ?? {},
			seeds: {},
			partner: false,
			now
		}),
		promptId,
		status: 'queued',
		queuedAt: now,
		elsewhere: true,
		...(links ? { jobLinks: links } : {})
	};
}
