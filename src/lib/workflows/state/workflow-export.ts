/** Export: the file the user gave back (the UI format, with the form's values in `widgets_values`), else the API prompt. */
import type { SavedWorkflow } from '$lib/workflows/protocol/api';
import { downloadName } from '$lib/core/rules/download-name';

export function exportWorkflowFile(workflow: Pick<SavedWorkflow, 'name' | 'prompt' | 'ui'>): void {
	const body = workflow.ui ?? workflow.prompt;
	const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
	const a = document.createElement('a');
	a.href = url;
	a.download = `${downloadName(workflow.name, 'workflow')}.json`;
	a.click();
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}
