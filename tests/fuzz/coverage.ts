/**
 * Which fuzz target reaches each reader of outside input (network, files, storage). `coverage.test.ts`
 * fails when an exported `parse*`/`read*` function under a feature's `protocol/` is missing here, when
 * an entry names a function its module no longer exports, or a target that does not exist: so a new
 * parser is covered the day it lands. Readers outside `protocol/` are listed too, by hand.
 */
export const FUZZED_READERS: Record<string, string> = {
	// core/protocol
	'src/lib/core/protocol/app-timings.ts#parseTimings': 'runtime config',
	'src/lib/core/protocol/json.ts#parseJsonWithin': 'history files',
	'src/lib/core/protocol/runtime-config.ts#parseRuntimeConfig': 'runtime config',
	// workflows/protocol: the socket, v1 answers, object_info, v2
	'src/lib/workflows/protocol/frames.ts#decodeFrame': 'binary frames',
	'src/lib/workflows/protocol/workflow-events.ts#parseServerEvent': 'socket events',
	'src/lib/workflows/protocol/workflow-events.ts#parseFileRefs': 'socket events',
	'src/lib/workflows/protocol/workflow-events.ts#parseNodeOutput': 'socket events',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseSubmitAccepted': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseJobStatus': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseHistory': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseQueue': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseCancelled': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseFromHashName': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseServerVersion': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseNodeErrors': 'workflow service answers',
	'src/lib/workflows/protocol/workflow-api-parse.ts#parseRejection': 'workflow service answers',
	'src/lib/workflows/protocol/object-info.ts#parseInputSpec': 'object_info',
	'src/lib/workflows/protocol/object-info.ts#parseNodeDefinition': 'object_info',
	'src/lib/workflows/protocol/object-info.ts#parseObjectInfo': 'object_info',
	'src/lib/workflows/protocol/v2-events.ts#createV2EventReader': 'v2 event stream',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#readTime': 'v2 jobs and assets',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2Progress': 'v2 event stream',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2Output': 'v2 event stream',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2StatusEvent': 'v2 event stream',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2PreviewEvent': 'v2 event stream',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2Job': 'v2 jobs and assets',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2Asset': 'v2 jobs and assets',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2Envelope': 'v2 jobs and assets',
	'src/lib/workflows/protocol/workflow-v2-parse.ts#parseV2NodeErrors': 'v2 jobs and assets',
	// workflows/protocol/files: one entry point reaches every container reader
	'src/lib/workflows/protocol/files/read-workflow-file.ts#readWorkflowFile': 'workflow files',
	'src/lib/workflows/protocol/files/png.ts#readPng': 'workflow files',
	'src/lib/workflows/protocol/files/webp.ts#readWebp': 'workflow files',
	'src/lib/workflows/protocol/files/webp.ts#readExifStrings': 'workflow files',
	'src/lib/workflows/protocol/files/flac.ts#readFlac': 'workflow files',
	'src/lib/workflows/protocol/files/ogg.ts#readOgg': 'workflow files',
	'src/lib/workflows/protocol/files/vorbis-comment.ts#readVorbisComment': 'workflow files',
	'src/lib/workflows/protocol/files/id3.ts#readId3': 'workflow files',
	'src/lib/workflows/protocol/files/mp4.ts#readMp4': 'workflow files',
	'src/lib/workflows/protocol/files/matroska.ts#readMatroska': 'workflow files',
	// A video's first frame (core/protocol/video), for a sweep cell's poster
	'src/lib/core/protocol/video/webm-first-frame.ts#webmFirstFrame': 'video first frames',
	'src/lib/core/protocol/video/mp4-first-frame.ts#mp4FirstFrame': 'video first frames',
	// Readers outside protocol/
	'src/lib/core/rules/http-response.ts#readJson': 'service responses',
	'src/lib/core/rules/timeline-record.ts#readTimelineRecord': 'stored search records',
	'src/lib/timeline/rules/search-chunk.ts#readSearchChunk': 'stored search records',
	'src/lib/core/rules/http-response.ts#responseError': 'service responses',
	'src/lib/history/rules/history-file.ts#parseHistoryFile': 'history files',
	'src/lib/settings/rules/profile-link.ts#readProfileLink': 'profile links',
	'src/lib/workflows/rules/workflow-import.ts#importWorkflowText': 'workflow import',
	'src/lib/workflows/rules/converter/import-workflow.ts#importWorkflowTexts': 'workflow import',
	'src/lib/workflows/rules/converter/json-python.ts#parsePythonJson': 'UI-format workflows',
	'src/lib/workflows/rules/run-graph.ts#buildRunGraph': 'run graph',
	'src/lib/workflows/rules/run-graph-layout.ts#layoutGraph': 'run graph',
	'src/lib/models/rules/schema-validate.ts#prepareModelForm': 'schema documents',
	'src/lib/models/rules/schema-pattern.ts#compilePattern': 'backtracking patterns',
	'src/lib/models/rules/model-summary.ts#summariseSchema': 'model summaries',
	'src/lib/models/rules/model-summary.ts#parseSummary': 'model summaries',
	'src/lib/models/rules/model-catalog.ts#parseCatalogPage': 'model summaries',
	'src/lib/workflows/rules/bundle/bundle-read.ts#readBundle': 'run bundles',
	'src/lib/workflows/rules/bundle/zip-read.ts#readZip': 'run bundles',
	'src/lib/workflows/rules/bundle/bundle-manifest.ts#parseManifest': 'run bundles',
	'src/lib/workflows/rules/bundle/share-link.ts#readShareLink': 'share links'
};
