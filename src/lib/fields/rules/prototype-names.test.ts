/**
 * The class "names that are also Object.prototype members" in the form layer: schema properties,
 * field ids, values and workflow inputs spelled like `constructor` or `__proto__` are own data.
 */
import { describe, expect, it } from 'vitest';
import { PROTO_NAMES } from '../../core/protocol/prototype-names.fixture';
import { schemaToForm } from './schema-fields';
import { cleanBody, fits } from './field-values';
import { placeErrors, prepareModelForm } from '../../models/rules/schema-validate';
import { valueAt, withValueAt } from './field-model';
import { applyValues, workflowFieldGroups, workflowValues } from '../../workflows/rules/object-info-fields';
import { parseObjectInfo } from '../../workflows/protocol/object-info';
import { importWorkflowText } from '../../workflows/rules/workflow-import';

const doc = (input: unknown) =>
	JSON.parse(
		JSON.stringify({
			paths: { '/run': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } } },
			components: { schemas: { Input: input } }
		})
	);

describe.each([...PROTO_NAMES])('a name spelled "%s"', (name) => {
	it('as a schema property is one field with its own schema, default and errors', () => {
		const form = schemaToForm(
			doc({
				type: 'object',
				required: ['prompt', name],
				properties: { prompt: { type: 'string' }, [name]: { type: 'integer', minimum: 0, default: 3 } }
			})
		);
		expect(form.group.fields.map((f) => [f.path.join('.'), f.kind])).toEqual([
			['prompt', 'textarea'],
			[name, 'integer']
		]);
		expect(Object.getOwnPropertyDescriptor(form.defaults, name)?.value).toBe(3);
		expect(Object.getPrototypeOf(form.defaults)).toBe(Object.prototype);

		const { validator } = prepareModelForm(
			doc({ type: 'object', required: [name], properties: { [name]: { type: 'integer', minimum: 0 } } }),
			'Input'
		);
		const body = JSON.parse(`{${JSON.stringify(name)}:-1}`);
		const errors = validator!.validate(body);
		const placed = placeErrors(form.group.fields, body, errors);
		expect(Object.keys(placed.byField)).toEqual([name]);
		expect(placed.byField[name]).toMatch(/minimum|0/);
	});

	it('is never a field when only an order hint or `required` names it', () => {
		const form = schemaToForm(
			doc({ type: 'object', required: [name], 'x-fal-order-properties': [name, 'prompt'], properties: { prompt: { type: 'string' } } })
		);
		expect(form.group.fields.map((f) => f.path.join('.'))).toEqual(['prompt']);
		expect(placeErrors(form.group.fields, {}, []).byField[name]).toBeUndefined();
	});

	it('as a $ref target that the document does not define is unresolvable', () => {
		for (const ref of [`#/components/schemas/${name}`, `#/${name}`]) {
			const form = schemaToForm(doc({ type: 'object', properties: { x: { $ref: ref } } }));
			expect(form.group.fields[0]).toMatchObject({ kind: 'json', reason: `cannot resolve ${ref}` });
		}
	});

	it('as a value path is read and written as own data', () => {
		const written = withValueAt({}, [name, 'a'], 1) as Record<string, unknown>;
		expect(Object.getPrototypeOf(written)).toBe(Object.prototype);
		expect(valueAt(written, [name, 'a'])).toBe(1);
		expect(valueAt({}, [name])).toBeUndefined();
		expect(cleanBody([], written)).toEqual(written);
		expect(
			fits({ kind: 'object', fields: [], id: 'x', path: ['x'], label: '', required: false, advanced: false, nullable: false }, written)
		).toBe(false);
	});

	// The workflow import refuses `__proto__` with a message (see domain/prototype-names.test.ts).
	it.skipIf(name === '__proto__')('as a node type, node id and input name builds the workflow form', () => {
		const info = parseObjectInfo(
			JSON.parse(`{${JSON.stringify(name)}:{"input":{"required":{${JSON.stringify(name)}:["INT",{"min":0,"max":9}]}},"output":[]}}`)
		);
		const imported = importWorkflowText(JSON.stringify({ [name]: { class_type: name, inputs: { [name]: 4 } } }));
		if (!info.ok || !imported.ok) throw new Error('setup');
		const groups = workflowFieldGroups(imported.prompt, info.nodes);
		expect(groups.map((g) => [g.id, g.fields.map((f) => f.path)])).toEqual([[name, [[name, name]]]]);
		const values = workflowValues(imported.prompt);
		const next = applyValues(imported.prompt, withValueAt(values, [name, name], 5) as typeof values);
		expect(Object.getOwnPropertyDescriptor(next, name)?.value.inputs[name]).toBe(5);
	});

	it.skipIf(name === '__proto__')('as a node type the server lacks gives no group, and does not throw', () => {
		const info = parseObjectInfo({ Other: { output: [] } });
		const imported = importWorkflowText(JSON.stringify({ 1: { class_type: name, inputs: {} } }));
		if (!info.ok || !imported.ok) throw new Error('setup');
		expect(workflowFieldGroups(imported.prompt, info.nodes)).toEqual([]);
	});
});
