/**
 * `$ref` and `allOf` of a schema document made flat, for the form mapping: the siblings of a
 * reference win over its target (a pydantic `allOf: [{$ref}]` with a description beside it).
 */
import { isSchema, pointerTarget, type Schema } from '../../core/protocol/openapi';

const MAX_NORMALIZE_DEPTH = 64;

export class Resolver {
	constructor(private readonly doc: Schema) {}

	/** Follows a local `$ref` (JSON pointer into the document); undefined for remote or broken refs. */
	ref(ref: string): Schema | undefined {
		return pointerTarget(this.doc, ref);
	}

	/**
	 * A schema with `$ref` followed and `allOf` merged, siblings winning over the target (a pydantic
	 * `allOf: [{$ref}]` with a description and default beside it). `refName` is the last ref's name.
	 */
	normalize(schema: Schema, seen: Set<string> = new Set(), depth = 0): { schema: Schema; refName?: string; problem?: string } {
		// A chain of distinct references or nested allOf is walked by recursion: bounded, with a message.
		if (depth > MAX_NORMALIZE_DEPTH) return { schema: {}, problem: `references and allOf nest deeper than ${MAX_NORMALIZE_DEPTH} levels` };
		let out: Schema = { ...schema };
		let refName: string | undefined;
		const ref = out['$ref'];
		if (typeof ref === 'string') {
			if (seen.has(ref)) return { schema: {}, problem: `recursive reference ${ref}` };
			const target = this.ref(ref);
			if (!target) return { schema: {}, problem: `cannot resolve ${ref}` };
			const inner = this.normalize(target, new Set([...seen, ref]), depth + 1);
			if (inner.problem) return inner;
			delete out['$ref'];
			out = { ...inner.schema, ...out };
			refName = ref.split('/').pop();
		}
		const allOf = out['allOf'];
		if (Array.isArray(allOf)) {
			delete out['allOf'];
			let merged: Schema = {};
			for (const part of allOf) {
				if (!isSchema(part)) continue;
				const n = this.normalize(part, seen, depth + 1);
				if (n.problem) return n;
				refName ??= n.refName;
				merged = mergeSchemas(merged, n.schema);
			}
			out = mergeSchemas(merged, out);
		}
		return { schema: out, ...(refName ? { refName } : {}) };
	}
}

export function mergeSchemas(a: Schema, b: Schema): Schema {
	const out: Schema = { ...a, ...b };
	if (isSchema(a['properties']) || isSchema(b['properties'])) {
		out['properties'] = { ...(isSchema(a['properties']) ? a['properties'] : {}), ...(isSchema(b['properties']) ? b['properties'] : {}) };
	}
	const req = [...(Array.isArray(a['required']) ? a['required'] : []), ...(Array.isArray(b['required']) ? b['required'] : [])];
	if (req.length) out['required'] = [...new Set(req)];
	if (a['type'] && !b['type']) out['type'] = a['type'];
	return out;
}
