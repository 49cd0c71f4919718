/**
 * The live socket's binary frames: a preview goes to the page with the run it belongs to (named by
 * its prompt id, else the one run of that profile that is running), progress text to that run.
 */
import type { WorkflowRun } from '../rules/run-record';
import type { Frame } from '../protocol/frames';
import type { WorkflowContext } from './socket-message';

export interface FrameTarget {
	byPrompt(promptId: string): WorkflowRun | undefined;
	/** The open runs of a profile that are running now. */
	running(profileId: string): WorkflowRun[];
	update(run: WorkflowRun): void;
}

export function onFrame(ctx: WorkflowContext, profileId: string, frame: Frame, target: FrameTarget): void {
	if (frame.kind === 'preview-with-metadata') {
		const run = target.byPrompt(frame.metadata.prompt_id);
		const bytes = frame.image.slice().buffer;
		const nodeId = frame.metadata.display_node_id || frame.metadata.node_id;
		ctx.emit({ type: 'preview', runId: run?.id ?? null, nodeId, mime: frame.mime, bytes }, [bytes]);
		return;
	}
	// Types 1 and 3 carry no prompt id: attribute them only when exactly one of our runs is running.
	const running = target.running(profileId);
	const only = running.length === 1 ? running[0]! : undefined;
	if (frame.kind === 'preview') {
		const bytes = frame.image.slice().buffer;
		ctx.emit({ type: 'preview', runId: only?.id ?? null, nodeId: only?.progress.current ?? null, mime: frame.mime, bytes }, [bytes]);
	} else if (only) {
		target.update({ ...only, progressText: { nodeId: frame.nodeId, text: frame.text } });
	}
}
