/**
 * The runtime config file `/runboard.config.json`, written next to the build by `npm start`.
 * A hosted build ships without one; then there is no demo preset and the app works with the
 * profiles people create. Parsed here once; everything else trusts the typed value.
 */
import { isObject, own, str, tryParseJson, type JsonObject } from './json';
import { parseTimings, type AppTimings } from './app-timings';

export const RUNTIME_CONFIG_PATH = '/runboard.config.json';

export interface DemoConfig {
	name: string;
	workflowUrl: string;
	routerUrl: string;
	apiKey: string;
}

export interface RuntimeConfig {
	/** The demo profile on the emulator's v1 routes. */
	demo?: DemoConfig;
	/**
	 * A second demo profile on the same emulator, whose workflow runs go through the managed v2 jobs
	 * API (`/api/v2` on the workflow origin). Configs written before it existed simply lack it.
	 */
	demoV2?: DemoConfig;
	/** The app's timers, when the file sets any (tests shorten them); keys left out keep their defaults. */
	timings?: AppTimings;
}

export type ParseConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; message: string };

const DEFAULT_NAMES = { demo: 'Demo (local emulator)', demoV2: 'Demo on v2 (managed)' } as const;

function isHttpUrl(text: string): boolean {
	try {
		const u = new URL(text);
		return u.protocol === 'http:' || u.protocol === 'https:';
	} catch {
		return false;
	}
}

type SectionResult = { ok: true; demo: DemoConfig | undefined } | { ok: false; message: string };

function parseSection(root: JsonObject, key: keyof typeof DEFAULT_NAMES): SectionResult {
	const demo = own(root, key);
	if (demo === undefined || demo === null) return { ok: true, demo: undefined };
	if (!isObject(demo)) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: "${key}" must be an object` };
	const workflowUrl = str(demo, 'workflowUrl');
	const routerUrl = str(demo, 'routerUrl');
	const apiKey = str(demo, 'apiKey');
	if (!workflowUrl || !isHttpUrl(workflowUrl))
		return { ok: false, message: `${RUNTIME_CONFIG_PATH}: ${key}.workflowUrl must be an http(s) URL` };
	if (!routerUrl || !isHttpUrl(routerUrl)) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: ${key}.routerUrl must be an http(s) URL` };
	if (apiKey === undefined) return { ok: false, message: `${RUNTIME_CONFIG_PATH}: ${key}.apiKey must be a string` };
	return { ok: true, demo: { name: str(demo, 'name') ?? DEFAULT_NAMES[key], workflowUrl, routerUrl, apiKey } };
}

export function parseRuntimeConfig(text: string): ParseConfigResult {
	const value = tryParseJson(text);
	if (!isObject(value)) return { ok: false, message: `${RUNTIME_CONFIG_PATH} is not a JSON object` };
	const demo = parseSection(value, 'demo');
	if (!demo.ok) return demo;
	const demoV2 = parseSection(value, 'demoV2');
	if (!demoV2.ok) return demoV2;
	const rawTimings = own(value, 'timings');
	const timings = parseTimings(rawTimings, RUNTIME_CONFIG_PATH);
	if (!timings.ok) return timings;
	return {
		ok: true,
		config: {
			...(demo.demo ? { demo: demo.demo } : {}),
			...(demoV2.demo ? { demoV2: demoV2.demo } : {}),
			...(rawTimings !== undefined && rawTimings !== null ? { timings: timings.timings } : {})
		}
	};
}
