/** What a workflow output is called on screen, and the file name its download gets (the one cleaning rule). */
import { downloadName } from '../../core/rules/download-name';
import type { FileRef } from '../../core/protocol/workflow-run';

/** v2 outputs are named (`label`); their `filename` is an opaque asset id. */
export function outputName(ref: Pick<FileRef, 'label' | 'filename'>): string {
	return ref.label ?? ref.filename;
}

export function outputDownloadName(ref: Pick<FileRef, 'label' | 'filename'>): string {
	return downloadName(outputName(ref), 'output');
}
