/** A real local ComfyUI 0.3.64, as Runboard relies on it (run by hand: `npm run test:real`). */
import { describe, expect, it } from 'vitest';
import { chainWorkflow, COMFYUI_URL } from './real-servers';

async function queue(): Promise<{ running: string[]; pending: string[] }> {
	const q = (await (await fetch(`${COMFYUI_URL}/queue`)).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
	return { running: q.queue_running.map((i) => String(i[1])), pending: q.queue_pending.map((i) => String(i[1])) };
}

describe.skipIf(!COMFYUI_URL)('a real ComfyUI 0.3.64', () => {
	// Seen on the real 0.3.64: /api/features answers 200 ({supports_preview_metadata, max_upload_size}), as the
	// emulator's legacy mode now does, yet there is no job list (a bare 404) and no job cancel (405): the app's
	// probe asks the job list (`GET /api/jobs?limit=1`), never /api/features.
	it('answers /api/features, yet has no job list and no job-cancel route', async () => {
		const features = await fetch(`${COMFYUI_URL}/api/features`);
		expect(features.status).toBe(200);
		expect(await features.json()).toEqual({ supports_preview_metadata: true, max_upload_size: 104857600 });
		const jobs = await fetch(`${COMFYUI_URL}/api/jobs?limit=1`, { headers: { Origin: 'http://app.test' } });
		expect(jobs.status).toBe(404);
		expect(jobs.headers.get('access-control-allow-origin'), 'a bare router 404: the browser sees a CORS failure').toBeNull();
		expect([404, 405]).toContain((await fetch(`${COMFYUI_URL}/api/jobs/x/cancel`, { method: 'POST' })).status);
	});

	it('another client’s running job is in queue_running; a queue delete leaves it running; an interrupt with its id stops it', async () => {
		const submitted = await fetch(`${COMFYUI_URL}/prompt`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt: chainWorkflow(8), client_id: 'another-client' })
		});
		const { prompt_id: id } = (await submitted.json()) as { prompt_id: string };
		for (let i = 0; i < 120 && !(await queue()).running.includes(id); i++) await new Promise((r) => setTimeout(r, 500));
		expect((await queue()).running).toContain(id);
		await fetch(`${COMFYUI_URL}/queue`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ delete: [id] })
		});
		expect((await queue()).running).toContain(id);
		await fetch(`${COMFYUI_URL}/interrupt`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt_id: id })
		});
		let history: Record<string, { status?: { messages?: unknown[][] } }> = {};
		for (let i = 0; i < 120 && !history[id]; i++) {
			await new Promise((r) => setTimeout(r, 500));
			history = (await (await fetch(`${COMFYUI_URL}/history/${id}`)).json()) as typeof history;
		}
		expect(history[id]?.status?.messages?.some((m) => m[0] === 'execution_interrupted')).toBe(true);
	}, 150_000);
});
