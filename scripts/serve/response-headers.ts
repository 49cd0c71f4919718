/** The headers every response of the app's origin carries, and the caching rule for each path. */

/**
 * Browser features the app never uses. Listed features are the ones Chromium, Firefox and Safari
 * recognise; an unknown name only costs a console warning, but clutters the test logs.
 * Not denied on purpose: clipboard (copying request ids), fullscreen and autoplay (output previews),
 * screen wake lock (watching a run on a phone), and local-network access (a hosted page may need it
 * to reach a ComfyUI on loopback).
 */
const DENIED_FEATURES = [
	'accelerometer',
	'camera',
	'display-capture',
	'geolocation',
	'gyroscope',
	'hid',
	'magnetometer',
	'microphone',
	'midi',
	'payment',
	'publickey-credentials-get',
	'serial',
	'usb',
	'xr-spatial-tracking'
];

export const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(', ');

export function securityHeaders(contentSecurityPolicy: string): Record<string, string> {
	return {
		'Content-Security-Policy': contentSecurityPolicy,
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'Permissions-Policy': PERMISSIONS_POLICY,
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Cross-Origin-Resource-Policy': 'same-origin'
	};
}

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';

/**
 * Files under `/_app/immutable/` carry a content hash in their name, so they never change. Everything
 * else (index.html, sw.js, the manifest, the runtime config, icons) keeps its name across releases and
 * must be revalidated, or a browser would keep an old app shell or service worker.
 */
export function cacheControlFor(urlPath: string): string {
	return urlPath.startsWith('/_app/immutable/') ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}
