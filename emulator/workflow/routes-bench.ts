/**
 * Benchmark streams on the workflow origin (under `/__emulator/workflow/bench/`): a stream of type-4
 * preview frames, or a flood of `progress` events, for one prompt id at a fixed rate, sent to every
 * socket. Each answers when its stream has been sent, with how late the sender fell behind.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTROL_PREFIX } from '../control';
import { encodeFrame } from '../../src/lib/workflows/protocol/frames';
import { encodeJpeg, noisyStep, proceduralPicture } from './pictures';
import type { SocketHub } from './socket-hub';
import { badRequest, isObject, parseJson } from './http-util';

const PICTURES = 8;
const MAX_FRAMES = 20_000;
const MAX_EVENTS = 1_000_000;

interface StreamResult {
	sent: number;
	elapsedMs: number;
	/** The furthest any batch fell behind its planned time. */
	maxLagMs: number;
}

/** Calls `send(n)` with how many items are due, until `count` are sent at `perSecond`. */
export function paced(count: number, perSecond: number, send: (first: number, n: number) => void): Promise<StreamResult> {
	const start = performance.now();
	let sent = 0;
	let maxLagMs = 0;
	return new Promise((resolve) => {
		const tick = () => {
			const now = performance.now();
			const due = Math.min(count, Math.floor(((now - start) * perSecond) / 1000) + 1);
			if (due > sent) {
				maxLagMs = Math.max(maxLagMs, now - start - ((due - 1) * 1000) / perSecond);
				send(sent, due - sent);
				sent = due;
			}
			if (sent >= count) return resolve({ sent, elapsedMs: performance.now() - start, maxLagMs });
			setTimeout(tick, Math.max(0, start + (sent * 1000) / perSecond - performance.now()));
		};
		tick();
	});
}

/**
 * JPEGs of a 512x512 picture at the last sampler steps of 20. Frame `i` gets a comment segment that
 * makes its image exactly `i` bytes longer than frame 0's, so a client can tell frames apart by size.
 */
async function previewJpegs(size: number): Promise<Buffer[]> {
	const picture = proceduralPicture('runboard bench preview', 1, size, size);
	return Promise.all(Array.from({ length: PICTURES }, (_, step) => encodeJpeg(noisyStep(picture, 13 + step, 20, 1))));
}

/** Inserts `padding` bytes of JPEG comment segments (at most 65533 payload bytes each) after SOI. */
function withComment(jpeg: Buffer, padding: number): Uint8Array {
	const segments: Buffer[] = [];
	for (let left = padding; left > 0;) {
		const payload = left - 4 <= 65_533 ? left - 4 : 60_000; // never leaves a remainder too short for a segment
		const segment = Buffer.alloc(4 + payload, 0x20);
		segment.writeUInt16BE(0xfffe, 0);
		segment.writeUInt16BE(payload + 2, 2);
		segments.push(segment);
		left -= segment.length;
	}
	return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

export function installWorkflowBenchRoutes(app: FastifyInstance, hub: SocketHub): void {
	const p = `${CONTROL_PREFIX}/workflow/bench`;
	const read = (raw: unknown, reply: FastifyReply, maxCount: number) => {
		const parsed = parseJson(raw);
		const b = parsed.ok && isObject(parsed.value) ? parsed.value : {};
		const { promptId, count, perSecond } = b;
		const nodeId = typeof b['nodeId'] === 'string' ? b['nodeId'] : '3';
		if (typeof promptId !== 'string' || !Number.isInteger(count) || (count as number) < 1 || (count as number) > maxCount) {
			badRequest(reply, `promptId (string) and count (1 to ${maxCount}) are required.`);
			return undefined;
		}
		if (typeof perSecond !== 'number' || !(perSecond > 0 && perSecond <= 100_000)) {
			badRequest(reply, 'perSecond must be a number above 0, at most 100000.');
			return undefined;
		}
		return { promptId, count: count as number, perSecond, nodeId };
	};

	app.post<{ Body: unknown }>(`${p}/previews`, async (request, reply) => {
		const args = read(request.body, reply, MAX_FRAMES);
		if (!args) return reply;
		const jpegs = await previewJpegs(512);
		const longest = Math.max(...jpegs.map((j) => j.length));
		const metadata = {
			node_id: args.nodeId,
			display_node_id: args.nodeId,
			real_node_id: args.nodeId,
			prompt_id: args.promptId,
			parent_node_id: null
		};
		const result = await paced(args.count, args.perSecond, (first, n) => {
			for (let i = first; i < first + n; i++) {
				const jpeg = jpegs[i % PICTURES]!;
				const image = withComment(jpeg, longest - jpeg.length + 16 + i);
				const frame = encodeFrame({ kind: 'preview-with-metadata', metadata, mime: 'image/jpeg', image });
				for (const client of hub.clients) hub.sendBinary(client, frame);
			}
		});
		return { ...result, imageBytes: [longest + 16, longest + 16 + args.count - 1] };
	});

	app.post<{ Body: unknown }>(`${p}/progress`, async (request, reply) => {
		const args = read(request.body, reply, MAX_EVENTS);
		if (!args) return reply;
		return paced(args.count, args.perSecond, (first, n) => {
			for (let i = first; i < first + n; i++) {
				hub.sendJson(
					{ to: 'all' },
					{ type: 'progress', data: { value: i + 1, max: args.count, prompt_id: args.promptId, node: args.nodeId } }
				);
			}
		});
	});
}
