/**
 * Which workflow texts a file carries, as raw strings: `prompt` is the API format (what runs) and
 * `workflow` the editor's UI format (titles, groups, layout). Parsing and conversion are the
 * converter's job (`src/lib/workflow-ui/`).
 */
import { ownText, type FileTexts } from './texts';

export interface WorkflowTexts {
	/** API format, as ComfyUI's `prompt` metadata. */
	prompt?: string;
	/** UI format, as ComfyUI's `workflow` metadata (from `extra_pnginfo`). */
	workflow?: string;
}

export function workflowFromFileTexts(texts: FileTexts): WorkflowTexts {
	const out: WorkflowTexts = {};
	const prompt = ownText(texts, 'prompt')?.trim();
	const workflow = ownText(texts, 'workflow')?.trim();
	if (prompt) out.prompt = prompt;
	if (workflow) out.workflow = workflow;
	return out;
}
