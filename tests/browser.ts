/**
 * Which Chromium the end-to-end tests drive: Debian's `/usr/bin/chromium` when present (these
 * machines cannot download browsers), else `RUNBOARD_CHROMIUM`, else Playwright's own download
 * if one was installed with `npx playwright install chromium`.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

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

/**
 * Features no test needs that cost every browser context CPU: in the new headless mode each context
 * gets a browser window whose omnibox popup is a WebUI page in renderers of its own (decision 0059).
 */
const UNNEEDED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

const DISABLED_FEATURES_ENV = 'RUNBOARD_CHROMIUM_DISABLED_FEATURES';

/**
 * Chromium keeps only the last `--disable-features` it is given and Playwright passes its own list
 * first, so ours must repeat Playwright's. The global setup reads that list once from the command line
 * of a Chromium that Playwright launched, and hands the whole list to the test workers in the environment.
 */
export async function learnDisabledFeatures(executablePath: string | undefined): Promise<void> {
	const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
	try {
		const page = await browser.newPage();
		await page.goto('chrome://version');
		const commandLine = (await page.locator('#command_line').textContent()) ?? '';
		const playwrights = [...commandLine.matchAll(/--disable-features=(\S+)/g)].flatMap((match) => match[1]?.split(',') ?? []);
		process.env[DISABLED_FEATURES_ENV] = [...new Set([...playwrights, ...UNNEEDED_FEATURES])].join(',');
	} finally {
		await browser.close();
	}
}

/** The `--disable-features` flag the global setup composed (none before it ran, e.g. when the config is first read). */
export function disabledFeatureArgs(): string[] {
	const features = process.env[DISABLED_FEATURES_ENV];
	return features ? [`--disable-features=${features}`] : [];
}
