import { describe, expect, it } from 'vitest';
import { workflowAsCurl, workflowAsFetch, workflowAsPython, workflowTarget } from './workflow-copy';

const prompt = { '6': { class_type: 'CLIPTextEncode', inputs: { text: "a cat's hat", clip: ['4', 1] } } };

describe('copy a workflow as code', () => {
	it.each([
		['cloud', 'https://cloud.example/', 'https://cloud.example/api/prompt', 'x-api-key', { prompt }],
		['demo', 'http://127.0.0.1:8190', 'http://127.0.0.1:8190/api/prompt', 'x-api-key', { prompt }],
		['local-comfyui', 'http://127.0.0.1:8188', 'http://127.0.0.1:8188/api/prompt', null, { prompt }],
		['deployment', 'https://dep.example', 'https://dep.example/api/v2/jobs', 'bearer', { workflow: prompt }],
		['self-hosted-proxy', 'http://127.0.0.1:9000', 'http://127.0.0.1:9000/api/v2/jobs', null, { workflow: prompt }]
	] as const)('sends a %s profile’s prompt where Runboard sends it', (preset, workflowUrl, url, auth, body) => {
		expect(workflowTarget({ preset, workflowUrl }, prompt)).toMatchObject({ url, auth, body });
	});

	it('sends a Cloud profile’s prompt to v2 where its service offers it, with the Bearer key and an idempotency key', () => {
		const target = workflowTarget({ preset: 'cloud', workflowUrl: 'https://cloud.example' }, prompt, true);
		expect(target).toMatchObject({
			url: 'https://cloud.example/api/v2/jobs',
			auth: 'bearer',
			idempotent: true,
			body: { workflow: prompt }
		});
		// Only a Cloud profile is probed for v2: a local ComfyUI stays on its own routes.
		expect(workflowTarget({ preset: 'local-comfyui', workflowUrl: 'http://127.0.0.1:8188' }, prompt, true).url).toBe(
			'http://127.0.0.1:8188/api/prompt'
		);
	});

	it('never writes the key: each language reads it from the environment', () => {
		for (const preset of ['cloud', 'deployment'] as const) {
			const target = workflowTarget({ preset, workflowUrl: 'https://s.example' }, prompt);
			const code = [workflowAsCurl(target), workflowAsFetch(target), workflowAsPython(target)];
			for (const text of code) expect(text).toContain('WORKFLOW_API_KEY');
			expect(code[0]).toContain(`'\\''s hat`);
			expect(code[2]).toContain('os.environ["WORKFLOW_API_KEY"]');
		}
	});

	it('sends no key header to a local ComfyUI, and a v2 job carries an idempotency key', () => {
		const local = workflowTarget({ preset: 'local-comfyui', workflowUrl: 'http://127.0.0.1:8188' }, prompt);
		expect(workflowAsCurl(local)).not.toMatch(/API_KEY|Authorization|X-API-Key/);
		expect(workflowAsPython(local)).toMatch(/^import json\nimport requests/);
		const v2 = workflowTarget({ preset: 'deployment', workflowUrl: 'https://dep.example' }, prompt);
		expect(workflowAsFetch(v2)).toContain("'Idempotency-Key': crypto.randomUUID()");
		expect(workflowAsFetch(v2)).toContain('Authorization: `Bearer ${process.env.WORKFLOW_API_KEY}`');
	});

	it('writes code that parses back to the same prompt', () => {
		const target = workflowTarget({ preset: 'cloud', workflowUrl: 'https://s.example' }, prompt);
		const literal = /json\.loads\((".*")\)/.exec(workflowAsPython(target))?.[1];
		expect(JSON.parse(JSON.parse(literal!))).toEqual({ prompt });
	});
});
