/**
 * The Content-Security-Policy header for a built app, taken from the meta tag SvelteKit writes into
 * `index.html` (hash mode). Reading it from the build, rather than restating it, keeps the hash of the
 * inline boot script in the header identical to the page's. A meta policy cannot carry
 * `frame-ancestors`, so the header adds it.
 */

const META_TAG = /<meta\b[^>]*>/gi;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;

function decodeEntities(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;|&apos;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

function attributesOf(tag: string): Map<string, string> {
	const attributes = new Map<string, string>();
	for (const match of tag.matchAll(ATTRIBUTE)) {
		const name = match[1]!.toLowerCase();
		attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
	}
	return attributes;
}

/** The policy of the page's `<meta http-equiv="content-security-policy">`, or undefined when it has none. */
export function readMetaCsp(html: string): string | undefined {
	for (const [tag] of html.matchAll(META_TAG)) {
		const attributes = attributesOf(tag);
		if (attributes.get('http-equiv')?.toLowerCase() !== 'content-security-policy') continue;
		const content = attributes.get('content')?.trim();
		if (content) return content;
	}
	return undefined;
}

/** The meta policy plus the directives only a header can deliver. */
export function headerCsp(metaPolicy: string): string {
	const directives = metaPolicy
		.split(';')
		.map((directive) => directive.trim())
		.filter((directive) => directive !== '' && !/^frame-ancestors(\s|$)/i.test(directive));
	directives.push("frame-ancestors 'none'");
	return directives.join('; ');
}
