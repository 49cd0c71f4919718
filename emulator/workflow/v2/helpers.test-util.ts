/** Shared steps of the v2 test files (vitest side). */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Emulator } from '../../index';
import { control } from '../test-support';
import type { V2Client } from './test-client';

export type JobBody = {
	id: string;
	status: string;
	progress: Record<string, unknown> | null;
	outputs: Array<Record<string, unknown>>;
	urls: { self: string; events: string; cancel: string };
	[k: string]: unknown;
};

/** Polls the job (following urls.self) until `done` holds. */
export async function pollJob(client: V2Client, job: JobBody, done: (j: JobBody) => boolean, timeoutMs = 10_000): Promise<JobBody> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const { body } = await client.get<JobBody>(job.urls.self);
		if (done(body)) return body;
		if (Date.now() > end) throw new Error(`job ${job.id} still ${body.status}`);
		await sleep(10);
	}
}

export const terminal = (j: JobBody) => ['succeeded', 'failed', 'canceled', 'expired'].includes(j.status);

export async function faults(emu: Emulator, set: Record<string, unknown>): Promise<void> {
	await control(emu, '/faults', set);
}

export async function stepMs(emu: Emulator, ms: number): Promise<void> {
	await control(emu, '/workflow/timing', { stepMs: ms });
}
