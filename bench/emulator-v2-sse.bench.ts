/**
 * 50 concurrent v2 event streams (SSE, managed surface) on one running job: the time from an
 * event's emission on the job's channel to its write on each stream, p50/p95/max, beside a bare
 * `res.write` of the same frame to one stream of a plain Node server in the same run (the ratio).
 * Events: the job's own (status, throttled progress and previews, output) plus 300 `log` events
 * emitted every 10 ms while it samples, so the fan-out runs under the engine's load. Ends by itself.
 */
import { createServer, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { control, startEmulator } from '../emulator/workflow/test-support';
import { readSse } from '../emulator/workflow/v2/test-client';
import { smallJob } from '../emulator/workflow/v2/fixtures';
import { percentile, ratio } from './support/stats';
import { watchdog } from './support/watchdog';
import { check, report } from './support/report';

const STREAMS = 50;
const LOGS = 300;
const LOG_EVERY_MS = 10;

watchdog(3);

async function bareWrites(frame: string, count: number): Promise<number[]> {
	let res: ServerResponse | undefined;
	const server = createServer((_req, r) => {
		r.writeHead(200, { 'Content-Type': 'text/event-stream' });
		res = r;
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	const reading = readSse(`http://127.0.0.1:${port}/`, { until: (e) => e.length >= count, timeoutMs: 60_000 });
	while (!res) await sleep(5);
	const times: number[] = [];
	for (let i = 0; i < count; i++) {
		const t0 = performance.now();
		res.write(frame);
		times.push(performance.now() - t0);
		await sleep(LOG_EVERY_MS);
	}
	await reading;
	res.end();
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	return times;
}

const emu = await startEmulator();
const auth = { Authorization: `Bearer ${emu.apiKey}` };
await control(emu, '/workflow/timing', { stepMs: 20 });
const submitted = await fetch(`${emu.urls.workflow}/api/v2/jobs`, {
	method: 'POST',
	headers: { ...auth, 'Content-Type': 'application/json' },
	body: JSON.stringify({ workflow: smallJob(250) })
});
const job = (await submitted.json()) as { id: string; urls: { events: string } };
const latencies: number[] = [];
emu.workflow.v2.writeObserver = (ms) => latencies.push(ms);
const eventsUrl = new URL(job.urls.events, emu.urls.workflow).toString();
let connected = 0;
const streams = Array.from({ length: STREAMS }, () =>
	readSse(eventsUrl, { headers: auth, timeoutMs: 60_000, onEvent: (e) => e.event === 'status' && connected++ })
);
while (connected < STREAMS) await sleep(5);
const rec = emu.workflow.v2.jobs.records.get(job.id)!;
const frameSample = JSON.stringify({ level: 'info', message: 'Task in progress: 12s (bench)' });
for (let i = 0; i < LOGS; i++) {
	rec.channel.broadcast('log', { level: 'info', message: `Task in progress: ${i}s (bench)` });
	await sleep(LOG_EVERY_MS);
}
const reads = await Promise.all(streams);
const complete = reads.filter((r) => r.events.at(-1)?.data['status'] === 'succeeded').length;
const bare = await bareWrites(`event: log\ndata: ${frameSample}\n\n`, LOGS);
await emu.close();

const fmt = (v: number) => `${(v * 1000).toFixed(1)} µs`;
const p95 = percentile(latencies, 95);
const bareP95 = percentile(bare, 95);
console.log(`streams ${STREAMS}, frames written ${latencies.length}, streams that saw the terminal status ${complete}/${STREAMS}`);
console.log(`emission to write, per stream: p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(p95)}, max ${fmt(Math.max(...latencies))}`);
console.log(`bare res.write, one stream:    p50 ${fmt(percentile(bare, 50))}, p95 ${fmt(bareP95)}`);
console.log(`ratio p95 (fan-out to 50 / bare write): ${ratio(p95, bareP95)}`);
report({
	name: `emission to write on ${STREAMS} streams, p95 (baseline: a bare res.write)`,
	figure: p95 * 1000,
	unit: 'µs',
	baseline: bareP95 * 1000
});
check(`every one of the ${STREAMS} streams saw the terminal status`, complete === STREAMS, `${complete}/${STREAMS}`);
process.exit(process.exitCode ?? 0);
