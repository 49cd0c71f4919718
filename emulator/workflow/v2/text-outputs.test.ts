/**
 * Text outputs on v2: the contract makes a text-producing node's output (PreviewAny) an Output of
 * type `text` served as a `text/plain` asset; the self-hosted proxy drops them (observed in front of
 * ComfyUI 0.3.64).
 */
import { describe, expect, it } from 'vitest';
import { useWorkflowEmulator } from '../use-workflow-emulator';
import { v2Client } from './test-client';
import { smallJob } from './fixtures';
import { pollJob, terminal, type JobBody } from './helpers.test-util';

const bed = useWorkflowEmulator();

/** The small image job plus a PreviewAny that shows a text. */
function withText(text: string) {
	return { ...smallJob(), '20': { class_type: 'PreviewAny', inputs: { source: text } } };
}

describe.each(['managed', 'deployment'] as const)('v2 %s: text outputs', (mode) => {
	const client = () => v2Client(bed.emu, mode);

	it('a PreviewAny output is an Output of type text, text/plain, whose content is the text', async () => {
		const { body } = await client().submit<JobBody>(withText('hello from v2'));
		const done = await pollJob(client(), body, terminal);
		expect(done.status).toBe('succeeded');
		const text = done.outputs.find((o) => o['type'] === 'text');
		expect(text).toMatchObject({ node_id: '20', type: 'text', content_type: 'text/plain', size_bytes: 13, name: expect.any(String) });
		expect(done.outputs.some((o) => o['type'] === 'image')).toBe(true);
		const res = await client().raw(`/assets/${encodeURIComponent(String(text!['id']))}/content`);
		expect(res.status).toBe(302);
		expect(await (await fetch(res.headers.get('location')!)).text()).toBe('hello from v2');
	});

	it('streams the text output before the terminal status', async () => {
		const { body } = await client().submit<JobBody>(withText('streamed'));
		const read = await client().events(body.urls.events);
		const names = read.events.map((e) => (e.event === 'output' ? `output:${String(e.data['type'])}` : e.event));
		expect(names).toContain('output:text');
		expect(names.indexOf('output:text')).toBeLessThan(names.lastIndexOf('status'));
	});
});

describe('self-hosted proxy: text outputs', () => {
	it('drops text outputs, keeping the image', async () => {
		const proxy = v2Client(bed.emu, 'self-hosted');
		const { body } = await proxy.submit<JobBody>(withText('dropped'));
		const done = await pollJob(proxy, body, terminal);
		expect(done.status).toBe('succeeded');
		expect(done.outputs.map((o) => o['type'])).toEqual(['image']);
	});
});
