/** Reads emulator ports and key from flags, then environment variables, then defaults. */
import { DEFAULT_API_KEY, DEFAULT_DEPLOYMENT_KEY, DEFAULT_PORTS, type EmulatorOptions } from './index';
import { isScenarioName } from './scenarios';

export function readCliOptions(argv: string[], env: NodeJS.ProcessEnv): EmulatorOptions {
	const flags = new Map<string, string>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (!arg.startsWith('--')) continue;
		const eq = arg.indexOf('=');
		if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
		else flags.set(arg.slice(2), argv[++i] ?? '');
	}
	const port = (flag: string, envName: string, fallback: number): number => {
		const raw = flags.get(flag) ?? env[envName];
		if (raw === undefined || raw === '') return fallback;
		const n = Number(raw);
		if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${flag}/${envName}: "${raw}" is not a port number`);
		return n;
	};
	const scenario = flags.get('scenario') ?? env['RUNBOARD_SCENARIO'] ?? 'default';
	if (!isScenarioName(scenario)) throw new Error(`--scenario: unknown scenario "${scenario}"`);
	const sizeRaw = flags.get('catalog-size') ?? env['RUNBOARD_CATALOG_SIZE'];
	let catalogSize: number | undefined;
	if (sizeRaw !== undefined && sizeRaw !== '') {
		catalogSize = Number(sizeRaw);
		if (!Number.isInteger(catalogSize) || catalogSize < 1 || catalogSize > 20_000)
			throw new Error(`--catalog-size/RUNBOARD_CATALOG_SIZE: "${sizeRaw}" is not a whole number from 1 to 20000`);
	}
	return {
		...(catalogSize === undefined ? {} : { catalogSize }),
		host: flags.get('host') ?? env['RUNBOARD_HOST'] ?? '127.0.0.1',
		apiKey: flags.get('api-key') ?? env['RUNBOARD_API_KEY'] ?? DEFAULT_API_KEY,
		deploymentKey: flags.get('deployment-key') ?? env['RUNBOARD_DEPLOYMENT_KEY'] ?? DEFAULT_DEPLOYMENT_KEY,
		scenario,
		ports: {
			workflow: port('workflow-port', 'RUNBOARD_WORKFLOW_PORT', DEFAULT_PORTS.workflow),
			router: port('router-port', 'RUNBOARD_ROUTER_PORT', DEFAULT_PORTS.router),
			storage: port('storage-port', 'RUNBOARD_STORAGE_PORT', DEFAULT_PORTS.storage),
			cdn: port('cdn-port', 'RUNBOARD_CDN_PORT', DEFAULT_PORTS.cdn),
			deployment: port('deployment-port', 'RUNBOARD_DEPLOYMENT_PORT', DEFAULT_PORTS.deployment),
			selfHosted: port('self-hosted-port', 'RUNBOARD_SELF_HOSTED_PORT', DEFAULT_PORTS.selfHosted)
		}
	};
}
