/**
 * Validation messages in the words of the form a person sees ("Write a prompt", "Use a number from
 * 1 to 50"), from the validator's keyword and the field it lands on. Pure; the schema's own terms
 * (types, keywords) never reach the screen when a field can say it better.
 */
import type { Field } from './field-model';

export interface WordedInput {
	/** The JSON Schema keyword that failed (`required`, `minimum`, `maxLength`…), when known. */
	keyword?: string;
	/** The message the validator gave, used when nothing better can be said. */
	message: string;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');
const lower = (label: string) => label.replace(/_/g, ' ').trim().toLowerCase();
const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : String(n));

/** What to do to fill a field that is missing. */
function fillIn(field: Field): string {
	const name = lower(field.label);
	switch (field.kind) {
		case 'text':
		case 'textarea':
			return `Write ${article(name)} ${name}`;
		case 'secret':
			return `Enter the ${name}`;
		case 'media':
			return field.accept === 'any' ? `Add a file for ${name}` : `Add ${article(field.accept)} ${field.accept}`;
		case 'integer':
		case 'number':
		case 'seed':
			return `Enter ${article(name)} ${name}`;
		case 'enum':
		case 'boolean':
		case 'variant':
			return `Choose ${article(name)} ${name}`;
		default:
			return `Fill in ${name}`;
	}
}

/** A number's allowed range in words: "a number from 1 to 50", "a whole number of at least 1". */
function rangeWords(field: Field): string | undefined {
	if (field.kind !== 'integer' && field.kind !== 'number' && field.kind !== 'seed') return undefined;
	const what = field.kind === 'number' ? 'a number' : 'a whole number';
	const min = field.min;
	const max = field.max;
	const exMin = field.kind !== 'seed' && field.exclusiveMin;
	const exMax = field.kind !== 'seed' && field.exclusiveMax;
	if (min !== undefined && max !== undefined && !exMin && !exMax) return `Use ${what} from ${fmt(min)} to ${fmt(max)}`;
	const parts: string[] = [];
	if (min !== undefined) parts.push(exMin ? `greater than ${fmt(min)}` : `of at least ${fmt(min)}`);
	if (max !== undefined) parts.push(exMax ? `less than ${fmt(max)}` : `${parts.length ? 'and ' : 'of '}at most ${fmt(max)}`);
	return parts.length ? `Use ${what} ${parts.join(' ')}` : undefined;
}

/** The message shown at `field` for one validation error. */
export function plainMessage(field: Field, error: WordedInput): string {
	switch (error.keyword) {
		case 'required':
			return fillIn(field);
		case 'minimum':
		case 'maximum':
		case 'exclusiveMinimum':
		case 'exclusiveMaximum':
		case 'multipleOf':
			return rangeWords(field) ?? error.message;
		case 'type':
			if (field.kind === 'integer' || field.kind === 'seed') return rangeWords(field) ?? 'Use a whole number';
			if (field.kind === 'number') return rangeWords(field) ?? 'Use a number';
			return error.message;
		case 'minLength':
			if (field.kind === 'text' || field.kind === 'textarea') {
				if (field.minLength === 1 || field.minLength === undefined) return fillIn(field);
				return `Write at least ${fmt(field.minLength)} characters`;
			}
			return error.message;
		case 'maxLength':
			if ((field.kind === 'text' || field.kind === 'textarea') && field.maxLength !== undefined)
				return `Keep it to ${fmt(field.maxLength)} characters or fewer`;
			return error.message;
		case 'enum':
		case 'const':
			return `Choose one of the offered ${lower(field.label)} values`;
		default:
			return error.message;
	}
}
