/**
 * `npm run convert -- --object-info <object_info.json> <file>` (or `--server <url>`): prints the
 * API-format prompt for a workflow file on stdout and exits 0, or prints what is wrong on stderr and
 * exits 1. Warnings go to stderr either way. The I/O comes in through `ConvertIo`, so tests run the
 * command without a process.
 */
import { extname } from 'node:path';
import { parseObjectInfo, type NodeDefinitions } from '../../src/lib/workflows/protocol/object-info';
import { toApiPrompt } from '../../src/lib/workflows/rules/workflow-import';
import type { Json } from '../../src/lib/core/protocol/json';
import type { ApiPrompt } from '../../src/lib/workflows/protocol/workflow-api';
import { checkApiPrompt } from '../../src/lib/workflows/rules/converter/api-check';
import { convertUiWorkflow, type ConvertMessage } from '../../src/lib/workflows/rules/converter/convert';
import { parsePythonJson } from '../../src/lib/workflows/rules/converter/json-python';
import { workflowFormatOf } from '../../src/lib/workflows/rules/converter/ui-format';
import { promptDifference } from '../../src/lib/workflows/rules/converter/import-workflow';
import { bytesSource, readWorkflowFile, workflowFromFileTexts } from '../../src/lib/workflows/protocol/files';

export interface ConvertIo {
	readFile(path: string): Promise<Uint8Array>;
	fetch(url: string, init: { signal: AbortSignal }): Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
	stdout(text: string): void;
	stderr(text: string): void;
}

/** Larger than any workflow or object_info file: beyond this, a file is refused unread. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
const USAGE = 'Usage: npm run convert -- (--object-info <object_info.json> | --server <url>) <workflow file>';

class CommandError extends Error {}

/** The workflow a file carries, and the API prompt embedded beside a UI workflow (files ComfyUI saved). */
interface FileWorkflow {
	value: Json;
	embeddedPrompt?: Json;
}

/** Files ComfyUI's save nodes write: the UI workflow preferred, the embedded prompt kept to check it against. */
async function readSavedFile(bytes: Uint8Array, path: string): Promise<FileWorkflow> {
	const read = await readWorkflowFile({ source: bytesSource(bytes), name: path }, AbortSignal.timeout(60_000));
	if (!read.ok) throw new CommandError(read.message);
	const texts = workflowFromFileTexts(read.texts);
	const prompt = texts.prompt !== undefined ? parsePythonJson(texts.prompt) : undefined;
	const workflow = texts.workflow !== undefined ? parsePythonJson(texts.workflow) : undefined;
	if (workflow?.ok && workflowFormatOf(workflow.value) === 'ui')
		return { value: workflow.value, ...(prompt?.ok ? { embeddedPrompt: prompt.value } : {}) };
	if (prompt?.ok) return { value: prompt.value };
	const broken = [prompt, workflow].find((p) => p && !p.ok);
	throw new CommandError(`${path}: its workflow is not valid JSON (${broken && !broken.ok ? broken.message : 'empty'}).`);
}

/** Turns a file's bytes into the workflow it carries, by extension. */
export const WORKFLOW_READERS: Record<string, (bytes: Uint8Array, path: string) => Promise<FileWorkflow>> = {
	'.json': async (bytes) => ({ value: parseJsonText(new TextDecoder().decode(bytes), 'The workflow file') }),
	...Object.fromEntries(
		['.png', '.apng', '.webp', '.flac', '.mp3', '.opus', '.ogg', '.mp4', '.m4v', '.mov', '.webm', '.mkv'].map((e) => [e, readSavedFile])
	)
};

function parseJsonText(text: string, what: string): Json {
	const parsed = parsePythonJson(text);
	if (!parsed.ok) throw new CommandError(`${what}: ${parsed.message}`);
	return parsed.value;
}

interface Args {
	objectInfo?: string;
	server?: string;
	file: string;
}

function parseArgs(argv: string[]): Args {
	let objectInfo: string | undefined;
	let server: string | undefined;
	const files: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--object-info' || arg === '--server') {
			const value = argv[++i];
			if (value === undefined) throw new CommandError(`${arg} needs a value. ${USAGE}`);
			if (arg === '--object-info') objectInfo = value;
			else server = value;
		} else if (arg.startsWith('--')) throw new CommandError(`Unknown option ${arg}. ${USAGE}`);
		else files.push(arg);
	}
	if (files.length !== 1) throw new CommandError(`Give exactly one workflow file. ${USAGE}`);
	if ((objectInfo === undefined) === (server === undefined)) throw new CommandError(`Give either --object-info or --server. ${USAGE}`);
	return { file: files[0]!, ...(objectInfo !== undefined ? { objectInfo } : {}), ...(server !== undefined ? { server } : {}) };
}

async function readLimited(io: ConvertIo, path: string): Promise<Uint8Array> {
	let bytes: Uint8Array;
	try {
		bytes = await io.readFile(path);
	} catch (error) {
		throw new CommandError(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (bytes.byteLength > MAX_FILE_BYTES)
		throw new CommandError(`${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB; no workflow is.`);
	return bytes;
}

async function loadDefinitions(io: ConvertIo, args: Args): Promise<NodeDefinitions> {
	let value: Json;
	if (args.server !== undefined) {
		let url: URL;
		try {
			url = new URL('api/object_info', args.server.endsWith('/') ? args.server : `${args.server}/`);
		} catch {
			throw new CommandError(`--server ${args.server} is not a URL.`);
		}
		let text: string;
		try {
			const res = await io.fetch(url.href, { signal: AbortSignal.timeout(60_000) });
			if (!res.ok) throw new CommandError(`${url.href} answered HTTP ${res.status}.`);
			text = await res.text();
		} catch (error) {
			if (error instanceof CommandError) throw error;
			throw new CommandError(`Cannot fetch ${url.href}: ${error instanceof Error ? error.message : String(error)}`);
		}
		value = parseJsonText(text, url.href);
	} else {
		value = parseJsonText(new TextDecoder().decode(await readLimited(io, args.objectInfo!)), args.objectInfo!);
	}
	const parsed = parseObjectInfo(value);
	if (!parsed.ok) throw new CommandError(parsed.message);
	return parsed.nodes;
}

interface Outcome {
	prompt?: ApiPrompt;
	errors: string[];
	warnings: string[];
}

const text = (m: ConvertMessage) => m.message;

/** Converts (UI format) or checks (API format) a workflow against the node definitions. */
export function convertWorkflowValue(value: Json, definitions: NodeDefinitions): Outcome {
	const format = workflowFormatOf(value);
	if (format === 'unknown') {
		return {
			errors: ['This is neither a UI-format workflow (with "nodes" and "links") nor an API-format prompt (nodes with "class_type").'],
			warnings: []
		};
	}
	if (format === 'api') {
		const imported = toApiPrompt(value);
		if (!imported.ok) return { errors: [imported.message], warnings: [] };
		const problems = checkApiPrompt(imported.prompt, definitions);
		return problems.length > 0 ? { errors: problems.map(text), warnings: [] } : { prompt: imported.prompt, errors: [], warnings: [] };
	}
	const result = convertUiWorkflow(value, definitions);
	const warnings = result.warnings.map(text);
	if (!result.ok) return { errors: result.errors.map(text), warnings };
	// A model file the server lacks does not make the prompt unsendable (the app keeps Run on too): a warning.
	warnings.push(
		...result.missing.models.map(
			(m) =>
				`Node ${m.nodeId} ("${m.title}") uses the model file "${m.name}" (${m.input}), which this server does not list` +
				(m.url ? `; download it from ${m.url}${m.directory ? ` into models/${m.directory}` : ''}.` : '.')
		)
	);
	const errors = checkApiPrompt(result.prompt, definitions).map(text);
	return errors.length > 0 ? { errors, warnings } : { prompt: result.prompt, errors: [], warnings };
}

/** Runs the command; returns the exit code. Never throws. */
export async function runConvert(argv: string[], io: ConvertIo): Promise<number> {
	try {
		const args = parseArgs(argv);
		const extension = extname(args.file).toLowerCase();
		const reader = Object.hasOwn(WORKFLOW_READERS, extension) ? WORKFLOW_READERS[extension] : undefined;
		if (!reader)
			throw new CommandError(
				`Reading ${extension || 'extension-less'} files is not supported; give a .json workflow or a file ComfyUI saved (${Object.keys(WORKFLOW_READERS).join(' ')}).`
			);
		const definitions = await loadDefinitions(io, args);
		const read = await reader(await readLimited(io, args.file), args.file);
		const outcome = convertWorkflowValue(read.value, definitions);
		const embedded = read.embeddedPrompt !== undefined ? toApiPrompt(read.embeddedPrompt) : undefined;
		if (embedded?.ok) {
			const difference = outcome.prompt ? promptDifference(embedded.prompt, outcome.prompt) : 'it does not convert';
			if (difference) {
				outcome.warnings.push(`the file's embedded prompt is printed, as ComfyUI ran it: the editor graph differs (${difference}).`);
				outcome.prompt = embedded.prompt;
				outcome.errors = [];
			}
		}
		for (const w of outcome.warnings) io.stderr(`warning: ${w}\n`);
		for (const e of outcome.errors) io.stderr(`error: ${e}\n`);
		if (!outcome.prompt) return 1;
		io.stdout(`${JSON.stringify(outcome.prompt, null, 2)}\n`);
		return 0;
	} catch (error) {
		if (error instanceof CommandError) io.stderr(`error: ${error.message}\n`);
		// Anything else is a bug of ours; say so in one line, without a stack trace.
		else
			io.stderr(
				`error: the converter failed unexpectedly (${error instanceof Error ? error.message : String(error)}). Please report this file.\n`
			);
		return 1;
	}
}
