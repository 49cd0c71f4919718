/** The model runs page became a filter of the one history, the Runs timeline: its old address leads there. */
import { redirect } from '@sveltejs/kit';

export function load(): never {
	redirect(308, '/?kind=model');
}
