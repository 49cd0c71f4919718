/**
 * Which Chromium the end-to-end tests drive: Debian's `/usr/bin/chromium` when present (these
 * machines cannot download browsers), else `RUNBOARD_CHROMIUM`, else Playwright's own download
 * if one was installed with `npx playwright install chromium`.
 */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumExecutable(): string | undefined {
	const fromEnv = process.env['RUNBOARD_CHROMIUM'];
	if (fromEnv) {
		if (!existsSync(fromEnv)) throw new Error(`RUNBOARD_CHROMIUM=${fromEnv} does not exist.`);
		return fromEnv;
	}
	return CANDIDATES.find((path) => existsSync(path));
}

/** Flags for a headless Chromium on a machine with no outside network, running as root. */
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage'
];
