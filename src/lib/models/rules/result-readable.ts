/**
 * A successful answer is a result only when it can be read. One that says it is JSON but does not
 * parse (cut off mid-way, or garbled by something between) is no success: the model may have run and
 * charged, so the run keeps its request id and offers to ask for the same answer again, which the
 * service gives in full (the same key replays a synchronous run; the queue keeps a result to collect).
 */
import { appError, type AppError } from '../../core/protocol/errors';
import { tryParseJson } from '../../core/protocol/json';
import { requestIdOf, type RawResponse } from '../../core/rules/http-response';
import { mediaKindOfType } from './model-assets';
import type { ModelCall } from './model-drive';

const SHOWN = 200;

export function unreadableResult(raw: RawResponse, call: ModelCall): AppError | undefined {
	if (mediaKindOfType(raw.header('Content-Type') ?? '') !== 'json') return undefined;
	const text = raw.bytes ? new TextDecoder().decode(raw.bytes) : raw.body;
	if (tryParseJson(text) !== undefined) return undefined;
	const size = raw.bytes?.byteLength ?? new TextEncoder().encode(text).byteLength;
	const again =
		call === 'collect'
			? '"Collect again" asks the queue for it once more.'
			: '"Retry with the same key" asks for the same answer again without starting a new run.';
	const requestId = requestIdOf(raw);
	return appError(
		'unreadable-result',
		`The model finished, but its answer could not be read: ${size} bytes that are not valid JSON, perhaps cut off on the way. ${again}`,
		{ status: raw.status, ...(requestId ? { requestId } : {}), detail: text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text }
	);
}

/** Whether asking again under the same key is what the run's error calls for. */
export const asksAgain = (error: AppError): boolean => error.kind === 'unreadable-result';
