/**
 * What makes one emulated workflow server unlike another, for a pool of them: node types it lacks,
 * model files its shelf lacks, and its speed (a sampler step's time). The default shape is the full
 * node set, the whole shelf and the default speed, so `npm start` serves what it always has.
 */
import type { InputSpec, NodeDefinition } from './node-definition';

export interface ServerShape {
	/** Node types this server does not have (absent from object_info; a workflow using one is refused). */
	lacksNodeTypes?: string[];
	/** Model files (by name) missing from every shelf folder: loaders do not list them, validation refuses them. */
	lacksModels?: string[];
	/** A sampler step's time on this server, in ms: what `reset` goes back to. */
	stepMs?: number;
	/**
	 * A scaled clock for benchmarks: this server's work runs this many times faster than its step
	 * times say (a step of `stepMs` takes `stepMs / timeScale` of wall time), so seconds of emulated
	 * work take a fraction of that. 1 (the default): real time.
	 */
	timeScale?: number;
}

const isDefault = (shape: ServerShape): boolean => !shape.lacksNodeTypes?.length && !shape.lacksModels?.length;

function withoutFiles(spec: InputSpec, lacking: ReadonlySet<string>): InputSpec {
	const [type, options] = spec;
	if (Array.isArray(type)) return [type.filter((c) => !lacking.has(c)), ...(options ? [options] : [])] as InputSpec;
	if (options && Array.isArray(options['options']))
		return [type, { ...options, options: (options['options'] as unknown[]).filter((c) => typeof c !== 'string' || !lacking.has(c)) }];
	return spec;
}

function section(specs: Record<string, InputSpec> | undefined, lacking: ReadonlySet<string>): Record<string, InputSpec> | undefined {
	if (!specs) return specs;
	const out: Record<string, InputSpec> = {};
	for (const [name, spec] of Object.entries(specs)) out[name] = withoutFiles(spec, lacking);
	return out;
}

/** The definitions this server serves: the full set less what its shape lacks. */
export function shapeDefinitions(definitions: Record<string, NodeDefinition>, shape: ServerShape): Record<string, NodeDefinition> {
	if (isDefault(shape)) return definitions;
	const types = new Set(shape.lacksNodeTypes ?? []);
	const lacking = new Set(shape.lacksModels ?? []);
	const out: Record<string, NodeDefinition> = {};
	for (const [name, definition] of Object.entries(definitions)) {
		if (types.has(name)) continue;
		out[name] =
			lacking.size === 0
				? definition
				: {
						...definition,
						input: {
							...definition.input,
							required: section(definition.input.required, lacking)!,
							...(definition.input.optional ? { optional: section(definition.input.optional, lacking)! } : {})
						}
					};
	}
	return out;
}

/** A shelf folder's files on this server. */
export function shapeFolder(files: readonly string[], shape: ServerShape): readonly string[] {
	const lacking = shape.lacksModels;
	return lacking?.length ? files.filter((f) => !lacking.includes(f)) : files;
}
