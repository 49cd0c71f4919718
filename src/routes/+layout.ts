// A pure single-page app: rendered in the browser only, every route served by the fallback page.
export const ssr = false;
export const prerender = false;
export const trailingSlash = 'never';
