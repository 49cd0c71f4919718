/** Every run has one page, whatever its kind: a model run's old address leads there. */
import { redirect } from '@sveltejs/kit';
import type { PageLoad } from './$types';

export const load: PageLoad = ({ params }) => {
	redirect(308, `/runs/${encodeURIComponent(params.id)}`);
};
