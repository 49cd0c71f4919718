/** `npm run emulator`: the emulator alone. See emulator/README.md for flags and scenarios. */
import { createEmulator } from './index';
import { readCliOptions } from './cli-options';

const options = readCliOptions(process.argv.slice(2), process.env);
const emulator = await createEmulator(options);
console.log(`Runboard emulator (scenario: ${emulator.state.scenario})
  workflow service  ${emulator.urls.workflow}
  model router      ${emulator.urls.router}
  storage origin    ${emulator.urls.storage}
  provider CDN      ${emulator.urls.cdn} (no CORS)
  v2 managed        ${emulator.urls.workflow}/api/v2
  v2 deployment     ${emulator.urls.deployment}/api/v2 (key ${emulator.deploymentKey})
  v2 self-hosted    ${emulator.urls.selfHosted}/api/v2 (no auth)
  API key           ${emulator.apiKey}
  control routes    ${emulator.urls.workflow}/__emulator/state`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		void emulator.close().then(() => process.exit(0));
	});
}
