/** Maps a request path onto a file under the app root, refusing anything that would leave it. */
import { extname, resolve, sep } from 'node:path';

export type ResolvedPath = { kind: 'file'; urlPath: string; filePath: string } | { kind: 'refused'; status: 400 | 403; reason: string };

/** `urlPath` is the raw path of the request (no query). */
export function resolveRequestPath(root: string, rawPath: string): ResolvedPath {
	let urlPath: string;
	try {
		urlPath = decodeURIComponent(rawPath);
	} catch {
		return { kind: 'refused', status: 400, reason: 'malformed percent-encoding in the path' };
	}
	if (!urlPath.startsWith('/')) return { kind: 'refused', status: 400, reason: 'the path must start with /' };
	if (urlPath.includes('\0')) return { kind: 'refused', status: 400, reason: 'NUL byte in the path' };
	// A backslash is a separator on Windows and never part of a file name the build writes.
	if (urlPath.includes('\\')) return { kind: 'refused', status: 400, reason: 'backslash in the path' };
	if (urlPath.split('/').some((segment) => segment === '..')) {
		return { kind: 'refused', status: 403, reason: 'path traversal' };
	}
	const rootDir = resolve(root);
	const filePath = resolve(rootDir, '.' + urlPath);
	if (filePath !== rootDir && !filePath.startsWith(rootDir + sep)) {
		return { kind: 'refused', status: 403, reason: 'path traversal' };
	}
	return { kind: 'file', urlPath, filePath };
}

/**
 * Client-side routes (`/runs/abc`) have no file: they get `index.html`. A path that names a file
 * (has an extension) or lies under `/_app/` is an asset, and a missing asset is a 404, never HTML.
 */
export function isSpaRoute(urlPath: string): boolean {
	return !urlPath.startsWith('/_app/') && extname(urlPath) === '';
}
