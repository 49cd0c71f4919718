/**
 * Inputs that make the simulated provider fail, so every error type is reachable by input:
 * a `prompt` or `text` containing `nsfw` is refused on content-policy grounds (negative prompts often
 * say "nsfw", so only these two fields count), and `[[<error_type>]]` anywhere in a string value
 * makes the run end with that error type (any snake_case name, known or not).
 */
export const CONTENT_POLICY_WORD = 'nsfw';
export const triggerFor = (errorType: string): string => `[[${errorType}]]`;

function* strings(value: unknown, depth = 0): Generator<string> {
	if (depth > 8) return;
	if (typeof value === 'string') yield value;
	else if (Array.isArray(value)) for (const v of value) yield* strings(v, depth + 1);
	else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) yield* strings(v, depth + 1);
}

const POLICED_FIELDS = ['prompt', 'text'];

export function findTrigger(input: unknown): string | undefined {
	for (const text of strings(input)) {
		const forced = /\[\[([a-z0-9_]{1,64})\]\]/.exec(text);
		if (forced) return forced[1];
	}
	if (typeof input !== 'object' || input === null) return undefined;
	for (const field of POLICED_FIELDS) {
		const value = (input as Record<string, unknown>)[field];
		if (typeof value === 'string' && value.toLowerCase().includes(CONTENT_POLICY_WORD)) return 'content_policy_violation';
	}
	return undefined;
}
