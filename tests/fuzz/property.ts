/**
 * The property every fuzz target must hold, and one run of it: the parser returns (a value or a
 * typed error), never throws, and neither its input nor its output is bigger than the caps.
 */
import fc from 'fast-check';
import type { FuzzTarget } from './targets';

/** Inputs are generated below this; a bigger one is a bug in the arbitrary, not the parser. */
export const MAX_INPUT_BYTES = 512 * 1024;
/** A parser may expand its input, within reason: a value much bigger than what it read is a memory bomb. */
export const outputCap = (inputSize: number) => 64 * 1024 + 32 * inputSize;

/** Approximate bytes of a value, walked without recursion and abandoned past `cap`. */
export function sizeOf(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
	let total = 0;
	const seen = new Set<object>();
	const stack: unknown[] = [value];
	while (stack.length && total <= cap) {
		const v = stack.pop();
		if (typeof v === 'string') total += v.length;
		else if (v instanceof Uint8Array) total += v.byteLength;
		else if (typeof v === 'object' && v !== null) {
			if (seen.has(v)) continue;
			seen.add(v);
			total += 8;
			for (const key of Object.keys(v)) {
				total += key.length;
				stack.push((v as Record<string, unknown>)[key]);
			}
		} else total += 8;
	}
	return total;
}

/** A result value `{ok: false}` must say what went wrong: a message, or errors (one or a list) with a kind and a message. */
function untypedFailure(value: unknown): string | undefined {
	const stack: unknown[] = Array.isArray(value) ? [...value] : [value];
	for (const v of stack) {
		if (typeof v !== 'object' || v === null || (v as { ok?: unknown }).ok !== false) continue;
		const r = v as { message?: unknown; error?: unknown; errors?: unknown };
		const typedError = (e: unknown) =>
			typeof e === 'object' &&
			e !== null &&
			typeof (e as { kind?: unknown }).kind === 'string' &&
			typeof (e as { message?: unknown }).message === 'string';
		const typed =
			typeof r.message === 'string' ||
			typedError(r.error) ||
			(Array.isArray(r.errors) && r.errors.length > 0 && r.errors.every(typedError));
		if (!typed) return 'returned {ok: false} without a message or a typed error';
	}
	return undefined;
}

/** Why this input breaks the property, or undefined when it holds (a sync target). */
export function checkInput(target: FuzzTarget, input: unknown): string | undefined {
	const inputSize = sizeOf(input, MAX_INPUT_BYTES);
	if (inputSize > MAX_INPUT_BYTES) return tooBig(inputSize);
	try {
		return checkOutput(target.parse(input), inputSize);
	} catch (error) {
		return threw(error);
	}
}

/** The same for a target that reads asynchronously (the file readers): its promise must resolve. */
export async function checkInputAsync(target: FuzzTarget, input: unknown): Promise<string | undefined> {
	const inputSize = sizeOf(input, MAX_INPUT_BYTES);
	if (inputSize > MAX_INPUT_BYTES) return tooBig(inputSize);
	try {
		return checkOutput(await target.parse(input), inputSize);
	} catch (error) {
		return threw(error);
	}
}

const tooBig = (inputSize: number) => `input of ${inputSize} bytes is over the ${MAX_INPUT_BYTES} cap (fix the arbitrary)`;
const threw = (error: unknown) => `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;

function checkOutput(output: unknown, inputSize: number): string | undefined {
	const cap = outputCap(inputSize);
	const outputSize = sizeOf(output, cap);
	if (outputSize > cap) return `output of more than ${cap} bytes from an input of ${inputSize}`;
	return untypedFailure(output);
}

export interface RunOptions {
	runs: number;
	budgetMs: number;
	seed: number;
	/** Stop at the first failure and shrink it (the short run); else count every failure (the long run). */
	stopAtFirst: boolean;
	/** Called before each input: the hang watchdog counts these. */
	onInput?: () => void;
}

export interface RunReport {
	name: string;
	tried: number;
	failures: number;
	/** The first few failures: the reason and the input, shown as JSON (shrunk in the short run). */
	examples: Array<{ reason: string; input: string }>;
	ms: number;
	seed: number;
	hang?: { afterInputs: number; ms: number };
}

export function preview(input: unknown): string {
	const text = input instanceof Uint8Array ? `bytes ${Buffer.from(input).toString('hex')}` : (fc.stringify(input) ?? String(input));
	return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
}

export async function runTarget(target: FuzzTarget, options: RunOptions): Promise<RunReport> {
	const t0 = performance.now();
	let tried = 0;
	let failures = 0;
	const examples: RunReport['examples'] = [];
	const judge = (input: unknown, reason: string | undefined): boolean => {
		if (reason === undefined) return true;
		failures++;
		if (examples.length < 3) examples.push({ reason, input: preview(input) });
		return !options.stopAtFirst;
	};
	const count = () => {
		tried++;
		options.onInput?.();
	};
	const settings = {
		numRuns: options.runs,
		seed: options.seed,
		interruptAfterTimeLimit: options.budgetMs,
		markInterruptAsFailure: false,
		examples: (target.regressions ?? []).map((r) => [r] as [unknown])
	};
	const result = target.async
		? await fc.check(
				fc.asyncProperty(target.arbitrary, async (input) => {
					count();
					return judge(input, await checkInputAsync(target, input));
				}),
				settings
			)
		: fc.check(
				fc.property(target.arbitrary, (input) => {
					count();
					return judge(input, checkInput(target, input));
				}),
				settings
			);
	if (options.stopAtFirst && result.failed && result.counterexample) {
		const [input] = result.counterexample;
		const again = target.async ? await checkInputAsync(target, input) : checkInput(target, input);
		examples.unshift({ reason: `shrunk: ${again ?? 'passes alone'}`, input: preview(input) });
	}
	return { name: target.name, tried, failures, examples, ms: Math.round(performance.now() - t0), seed: options.seed };
}
