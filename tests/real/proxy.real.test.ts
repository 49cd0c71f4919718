/**
 * The self-hosted proxy in front of a real ComfyUI 0.3.64, as Runboard relies on it (run by hand:
 * `npm run test:real`, see scripts/test-real.ts). Each test says what the app's rules assume.
 */
import { describe, expect, it } from 'vitest';
import { chainWorkflow, PROXY_COMFYUI_URL, PROXY_URL, readStream } from './real-servers';

const api = `${PROXY_URL}/api/v2`;
type Job = { id: string; status: string; urls: { self: string; events: string; cancel: string } };

async function submit(hops: number): Promise<Job> {
	const res = await fetch(`${api}/jobs`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ workflow: chainWorkflow(hops) })
	});
	expect(res.status).toBe(201);
	return (await res.json()) as Job;
}

async function read(job: Job): Promise<Job> {
	return (await (await fetch(job.urls.self)).json()) as Job;
}

async function until(job: Job, done: (j: Job) => boolean, timeoutMs: number): Promise<Job> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const now = await read(job);
		if (done(now) || Date.now() > end) return now;
		await new Promise((r) => setTimeout(r, 500));
	}
}

const TERMINAL = ['succeeded', 'failed', 'canceled', 'expired'];

describe.skipIf(!PROXY_URL)('the real proxy in front of ComfyUI 0.3.64', () => {
	it('streams a status, then node counts without node ids (value 1, done = total), then the end; the app reads these as running and counts', async () => {
		const job = await submit(4);
		const { frames, raw } = await readStream(job.urls.events, 300_000);
		expect(raw).not.toMatch(/^(id|retry):/m);
		expect(frames[0]?.event).toBe('status');
		const counts = frames.filter((f) => f.event === 'progress' && f.data['current_node'] == null && Number(f.data['nodes_done']) > 0);
		expect(counts.length).toBeGreaterThan(0);
		for (const f of counts) {
			expect(f.data['value']).toBe(1);
			expect(f.data['nodes_done']).toBe(f.data['nodes_total']);
		}
		expect(frames.filter((f) => f.event === 'status').at(-1)?.data['status']).toBe('succeeded');
	}, 320_000);

	it('a cancel of a running job answers canceling, then the job reads running: the server does not stop jobs; an interrupt to the ComfyUI behind it does', async () => {
		const job = await submit(8);
		await until(job, (j) => j.status === 'running', 60_000);
		const cancel = await fetch(job.urls.cancel, { method: 'POST' });
		expect(cancel.status).toBe(200);
		expect(((await cancel.json()) as Job).status).toBe('canceling');
		expect((await read(job)).status).toBe('running');
		if (!PROXY_COMFYUI_URL) return;
		const interrupt = await fetch(`${PROXY_COMFYUI_URL}/interrupt`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt_id: job.id })
		});
		expect(interrupt.status).toBe(200);
		expect((await until(job, (j) => TERMINAL.includes(j.status), 120_000)).status).toBe('canceled');
	}, 200_000);

	it('lists running and queued jobs in one read (status=running,queued), and refuses an unknown status with 400', async () => {
		const list = await fetch(`${api}/jobs?status=running,queued&limit=50`);
		expect(list.status).toBe(200);
		expect(Array.isArray(((await list.json()) as { jobs: unknown }).jobs)).toBe(true);
		expect((await fetch(`${api}/jobs?status=running,nope`)).status).toBe(400);
	});
});
