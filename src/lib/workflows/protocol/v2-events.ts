/**
 * The v2 job event stream (`GET /jobs/{id}/events`), read from a `fetch` body in whatever chunks the
 * network delivers: the SSE framing is left to eventsource-parser, and each frame's JSON is read
 * into a typed event here. Comments (`: keepalive`) count as activity for the stall watch.
 */
import { createParser } from 'eventsource-parser';
import { isObject, tryParseJson } from '../../core/protocol/json';
import type { V2LogEvent, V2Output, V2PreviewEvent, V2Progress, V2StatusEvent } from './workflow-v2';
import { parseV2Output, parseV2PreviewEvent, parseV2Progress, parseV2StatusEvent } from './workflow-v2-parse';

export type V2StreamEvent =
	| { kind: 'status'; event: V2StatusEvent }
	| { kind: 'progress'; progress: V2Progress }
	| { kind: 'preview'; preview: V2PreviewEvent }
	| { kind: 'output'; output: V2Output }
	| { kind: 'log'; log: V2LogEvent }
	/** A frame we could not read (unknown name, bad JSON): kept for the log, never fatal. */
	| { kind: 'unreadable'; name: string; data: string };

export interface V2EventReader {
	/** Feeds the next bytes of the body, split anywhere (even inside a UTF-8 character). */
	feed(bytes: Uint8Array): void;
	/** The body ended: flushes a trailing character, drops an unfinished frame (the spec: whatever was not sent is gone). */
	end(): void;
}

/**
 * `base` resolves output links; `onEvent` gets each frame, `onActivity` every chunk (keep-alives
 * included), so a caller can tell a quiet stream from a stalled one.
 */
export function createV2EventReader(
	base: string,
	onEvent: (event: V2StreamEvent) => void,
	onActivity: () => void = () => {}
): V2EventReader {
	const decoder = new TextDecoder();
	const parser = createParser({
		onEvent(message) {
			const name = message.event ?? 'message';
			onEvent(readFrame(name, message.data, base));
		}
	});
	return {
		feed(bytes) {
			onActivity();
			parser.feed(decoder.decode(bytes, { stream: true }));
		},
		end() {
			const rest = decoder.decode();
			if (rest) parser.feed(rest);
			parser.reset({ consume: false });
		}
	};
}

/** A log field as text: a string, a number or a boolean; anything else (an object with its own `toString`) is not called. */
function logText(value: unknown, fallback: string): string {
	return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : fallback;
}

function readFrame(name: string, data: string, base: string): V2StreamEvent {
	const json = tryParseJson(data);
	const unreadable = { kind: 'unreadable', name, data } as const;
	switch (name) {
		case 'status': {
			const event = parseV2StatusEvent(json);
			return event ? { kind: 'status', event } : unreadable;
		}
		case 'progress': {
			const progress = parseV2Progress(json);
			return progress ? { kind: 'progress', progress } : unreadable;
		}
		case 'preview': {
			const preview = parseV2PreviewEvent(json);
			return preview ? { kind: 'preview', preview } : unreadable;
		}
		case 'output': {
			const output = parseV2Output(json, base);
			return output ? { kind: 'output', output } : unreadable;
		}
		case 'log':
			return isObject(json)
				? { kind: 'log', log: { level: logText(json['level'], 'info'), message: logText(json['message'], '') } }
				: unreadable;
		default:
			return unreadable;
	}
}

/**
 * What to show for a progress snapshot. The contract's `value` is a fraction of the job; the real
 * proxy's snapshots read `value: 1` with `nodes_done = nodes_total` growing node by node. When the
 * value and the counts disagree that way, show the node count, not a percentage.
 */
export type ProgressView =
	{ kind: 'fraction'; value: number; nodesDone: number; nodesTotal: number } | { kind: 'nodes'; nodesDone: number };

export function progressView(p: V2Progress, running: boolean): ProgressView {
	const countsSayDone = p.nodes_total > 0 && p.nodes_done >= p.nodes_total;
	if (running && p.value >= 1 && countsSayDone) return { kind: 'nodes', nodesDone: p.nodes_done };
	return { kind: 'fraction', value: p.value, nodesDone: p.nodes_done, nodesTotal: p.nodes_total };
}
