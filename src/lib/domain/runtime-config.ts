/**
 * The runtime config file `/runboard.config.json`, written next to the build by `npm start`.
 * A hosted build ships without one; then there is no demo preset and the app works with the
 * profiles people create. Parsed here once; everything else trusts the typed value.
 */
import { isObject, own, str, tryParseJson } from '../wire/json';

export const RUNTIME_CONFIG_PATH = '/runboard.config.json';

export interface DemoConfig {
	name: string;
	workflowUrl: string;
	routerUrl: string;
	apiKey: string;
}

export interface RuntimeConfig {
	demo?: DemoConfig;
}

export type ParseConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; message: string };

function isHttpUrl(text: string): boolean {
	try {
		const u = new URL(text);
		return u.protocol === 'http:' || u.protocol === 'https:';
	} catch {
		return false;
	}
}

export function parseRuntimeConfig(text: string): ParseConfigResult {
	const value = tryParseJson(text);
	if (!isObject(value)) return { ok: false, message: `${RUNTIME_CONFIG_PATH} is not a JSON object` };
	const demo = own(value, 'demo');
	if (demo === undefined || demo === null) return { ok: true, config: {} };
	if (!isObject(demo)) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: "demo" must be an object` };
	const workflowUrl = str(demo, 'workflowUrl');
	const routerUrl = str(demo, 'routerUrl');
	const apiKey = str(demo, 'apiKey');
	if (!workflowUrl || !isHttpUrl(workflowUrl))
		return { ok: false, message: `${RUNTIME_CONFIG_PATH}: demo.workflowUrl must be an http(s) URL` };
	if (!routerUrl || !isHttpUrl(routerUrl)) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: demo.routerUrl must be an http(s) URL` };
	if (apiKey === undefined) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: demo.apiKey must be a string` };
	return { ok: true, config: { demo: { name: str(demo, 'name') ?? 'Demo (local emulator)', workflowUrl, routerUrl, apiKey } } };
}
