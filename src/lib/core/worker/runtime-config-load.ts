/** Reads the runtime config the app is served with (the emulator's demo profiles and timings). */
import { parseRuntimeConfig, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../protocol/runtime-config';

/** The config when one was read; why not when it exists but is broken; neither when there is none or no network. */
export interface LoadedConfig {
	config?: RuntimeConfig;
	problem?: string;
}

export async function loadRuntimeConfig(appOrigin: string, fetchImpl: typeof fetch = fetch): Promise<LoadedConfig> {
	try {
		const res = await fetchImpl(new URL(RUNTIME_CONFIG_PATH, appOrigin).toString(), {
			cache: 'no-store',
			credentials: 'omit',
			redirect: 'error'
		});
		if (res.status === 404) return {}; // a hosted build ships without one
		if (!res.ok) return { problem: `${RUNTIME_CONFIG_PATH} answered HTTP ${res.status}.` };
		const parsed = parseRuntimeConfig(await res.text());
		return parsed.ok ? { config: parsed.config } : { problem: parsed.message };
	} catch {
		// Offline: keep whatever demo profile was saved before.
		return {};
	}
}
