/**
 * The class "names that are also Object.prototype members": every parser in domain/ keeps such a
 * name as the file's own data and never finds the inherited member.
 */
import { describe, expect, it } from 'vitest';
import { PROTO_NAMES } from './prototype-names.fixture';
import { importWorkflowText, nodeTitle, PROTO_KEY_MESSAGE } from '../../workflows/rules/workflow-import';
import { importWorkflowTexts } from '../../workflows/rules/converter/import-workflow';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import { checkWorkflow, usesPartnerNodes } from '../../workflows/rules/workflow-check';
import { readJson, responseError, type RawResponse } from '../rules/http-response';
import { profileLink, readProfileLink } from '../../settings/rules/profile-link';
import { parseHistoryFile } from '../../history/rules/history-file';
import { parseRuntimeConfig } from './runtime-config';

const names = [...PROTO_NAMES];
/** `__proto__` is refused by the workflow import (with a message), so the workflow cases take the others. */
const keptNames = names.filter((n) => n !== '__proto__');
const objectPrototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

function response(status: number, headers: Record<string, string>, body: string): RawResponse {
	const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
	return { status, body, header: (n) => lower.get(n.toLowerCase()) ?? null };
}

it.each([
	['a node id', '{"__proto__":{"class_type":"KSampler","inputs":{}}}'],
	['an input name', '{"1":{"class_type":"KSampler","inputs":{"__proto__":1}}}'],
	['a key inside an input value', '{"1":{"class_type":"KSampler","inputs":{"a":[{"__proto__":{"valueOf":2}}]}}}'],
	['a node id in a wrapped prompt', '{"prompt":{"__proto__":{"class_type":"KSampler","inputs":{}}}}']
])('a workflow with "__proto__" as %s is refused with a message that says so', (_where, text) => {
	expect(importWorkflowText(text)).toEqual({ ok: false, message: PROTO_KEY_MESSAGE });
});

describe.each(keptNames)('a workflow name spelled "%s"', (name) => {
	it('as a node id, node type and input name imports as the file says', () => {
		const text = JSON.stringify({ [name]: { class_type: name, inputs: { [name]: 7, seed: 1 } } });
		const result = importWorkflowText(text);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(Object.keys(result.prompt)).toEqual([name]);
		const node = Object.getOwnPropertyDescriptor(result.prompt, name)!.value;
		expect(node.class_type).toBe(name);
		expect(Object.getOwnPropertyDescriptor(node.inputs, name)?.value).toBe(7);
		expect(nodeTitle(result.prompt, name)).toBe(name);
		expect(structuredClone(result.prompt)).toBeTruthy();
	});

	it('as a missing node id finds nothing', () => {
		const result = importWorkflowText('{"1":{"class_type":"X","inputs":{}}}');
		expect(result.ok && nodeTitle(result.prompt, name)).toBe(name);
		expect(importWorkflowTexts({}, '"a.png"', null).ok).toBe(false);
	});
});

describe.each(names)('a name spelled "%s"', (name) => {
	it('as a node type in object_info is one definition among others', () => {
		const info = JSON.parse(
			`{${JSON.stringify(name)}:{"input":{"required":{${JSON.stringify(name)}:["INT",{"default":1}]}},"output":["IMAGE"]},"Other":{"output":["LATENT"]}}`
		);
		const parsed = parseObjectInfo(info);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(Object.keys(parsed.nodes).sort()).toEqual([name, 'Other'].sort());
		expect(Object.getPrototypeOf(parsed.nodes)).toBeNull();
		const def = Object.getOwnPropertyDescriptor(parsed.nodes, name)!.value;
		expect(def.inputs.map((i: { name: string }) => i.name)).toEqual([name]);
	});

	it.skipIf(name === '__proto__')('as a node type the server does not have is reported as unknown, not found on Object.prototype', () => {
		const parsed = parseObjectInfo({ Other: { output: [] } });
		const imported = importWorkflowText(JSON.stringify({ 1: { class_type: name, inputs: {} } }));
		expect(parsed.ok && imported.ok).toBe(true);
		if (!parsed.ok || !imported.ok) return;
		const problems = checkWorkflow(imported.prompt, parsed.nodes);
		expect(problems).toHaveLength(1);
		expect(problems[0]!.message).toMatch(/which this server does not have/);
		expect(usesPartnerNodes(imported.prompt, parsed.nodes)).toBe(false);
	});

	it.skipIf(name === '__proto__')('as a link to a node id that does not exist is a dangling link', () => {
		const parsed = parseObjectInfo({ N: { input: { required: { x: ['IMAGE', {}] } }, output: ['IMAGE'] } });
		const imported = importWorkflowText(JSON.stringify({ 1: { class_type: 'N', inputs: { x: [name, 0] } } }));
		if (!parsed.ok || !imported.ok) throw new Error('setup');
		expect(checkWorkflow(imported.prompt, parsed.nodes).map((p) => p.message)).toEqual([
			expect.stringMatching(new RegExp(`links to node ${name.replace(/[$_]/g, '.')}, which is not in the workflow`))
		]);
	});

	it('as an error_type is an unknown type: the kind comes from the status', () => {
		for (const [headers, body] of [
			[{ 'X-Service-Error-Type': name }, '{}'],
			[{}, JSON.stringify({ error_type: name, detail: 'x' })]
		] as const) {
			const error = responseError(response(503, headers, body), 'router');
			expect(error.kind).toBe('unavailable');
			expect(typeof error.message).toBe('string');
			const read = readJson(response(400, headers, body), 'router');
			expect(read.ok === false && read.error.kind).toBe('invalid-input');
		}
	});

	it('as a profile link preset is refused', () => {
		const link = profileLink('https://app.example', { name: 'x', preset: name as never, workflowUrl: 'https://w.example', routerUrl: '' });
		expect(readProfileLink(new URL(link).searchParams.get('profile')!)).toBeUndefined();
	});

	it('as a history or runtime-config member is data, never a prototype', () => {
		const history = parseHistoryFile(
			`{"format":"runboard-history","version":1,"records":[{"key":"run:1","value":{${JSON.stringify(name)}:{"a":1}}}],${JSON.stringify(name)}:1}`
		);
		expect(history.ok && history.file.records).toHaveLength(1);
		expect(parseRuntimeConfig(`{${JSON.stringify(name)}:{"demo":1}}`)).toEqual({ ok: true, config: {} });
	});
});

it('leaves Object.prototype as it was', () => {
	expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(objectPrototypeBefore);
});
