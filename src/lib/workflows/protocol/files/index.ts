/** Reading the workflow ComfyUI embeds in the files its save nodes write. See docs/ARCHITECTURE.md. */
export {
	readWorkflowFile,
	blobSource,
	bytesSource,
	type ByteSource,
	type FileTexts,
	type WorkflowFileFormat,
	type WorkflowFileErrorKind,
	type WorkflowFileInput,
	type WorkflowFileResult
} from './read-workflow-file';
export { workflowFromFileTexts, type WorkflowTexts } from './workflow-texts';
export { MAX_FILE_READ_BYTES, MAX_INFLATED_TEXT_BYTES, MAX_METADATA_BYTES } from './limits';
