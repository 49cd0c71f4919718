/**
 * What a model sweep is expected to spend, only from what past runs of the same models here
 * reported (`X-Service-Credits-Used`): never a price of our own. A model with no such run makes the
 * total unknown, and the words say which.
 */
import type { TimelineEntry } from '../../core/protocol/run-kernel';

export interface SpendExpectation {
	/** Credits, in the service's own unit; null when some model's spend is not known. */
	credits: number | null;
	words: string;
}

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** `count` cells spread evenly over `modelIds` (the axis of models), each model's median reported charge. */
export function expectedCredits(entries: readonly TimelineEntry[], modelIds: readonly string[], count: number): SpendExpectation {
	if (modelIds.length === 0) return { credits: null, words: 'Spend: not known.' };
	const perModel = count / modelIds.length;
	const unknown: string[] = [];
	let total = 0;
	let runs = 0;
	for (const id of modelIds) {
		const past = entries
			.filter((e) => e.kind === 'model' && e.subject === id && e.credits !== null)
			.sort((a, b) => b.createdAt - a.createdAt)
			.slice(0, 10)
			.map((e) => e.credits!);
		if (past.length === 0) unknown.push(id);
		else {
			total += median(past) * perModel;
			runs += past.length;
		}
	}
	if (unknown.length > 0)
		return {
			credits: null,
			words: `Spend: not known (no past run of ${unknown.join(', ')} here reported what it used; the service publishes no prices).`
		};
	const credits = Math.round(total * 100) / 100;
	return {
		credits,
		words: `Spend: about ${credits} credits, from what ${runs} past run${runs === 1 ? '' : 's'} of these models reported.`
	};
}
