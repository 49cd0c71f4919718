/**
 * Several emulators at once, each a whole set of origins with its own workflow server shape (node
 * types and model files it lacks, its speed), for a pool of servers: `createEmulatorPool([...])`.
 * Each one stops on its own (`stop(i)`, as a server that goes away mid-run) and comes back on the
 * same ports (`restart(i)`, as a ComfyUI restarted: it forgot its queue and history, its counters
 * start again), and `close()` stops those still running. Ports are free ones unless given.
 */
import { createEmulator, DEFAULT_PORTS, type Emulator, type EmulatorOptions, type ServerShape } from './index';

export interface PoolServerOptions extends Omit<EmulatorOptions, 'server'> {
	/** A name for messages and the CLI. */
	name: string;
	shape?: ServerShape;
}

export interface EmulatorPool {
	servers: ReadonlyArray<{ name: string; emulator: Emulator }>;
	/** Stops one server at once (its connections end, its jobs stop); the others run on. */
	stop(index: number): Promise<void>;
	/** Starts a stopped server again on its ports, empty (`servers[index].emulator` is the new one). */
	restart(index: number): Promise<void>;
	/** Whether server `index` is stopped. */
	stopped(index: number): boolean;
	close(): Promise<void>;
}

const FREE_PORTS = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((name) => [name, 0])) as Record<keyof typeof DEFAULT_PORTS, number>;

export async function createEmulatorPool(servers: readonly PoolServerOptions[]): Promise<EmulatorPool> {
	const started: Array<{ name: string; emulator: Emulator }> = [];
	const start = ({ shape, ports, name: _name, ...options }: PoolServerOptions) =>
		createEmulator({ ...options, ports: { ...FREE_PORTS, ...ports }, ...(shape ? { server: shape } : {}) });
	try {
		for (const options of servers) started.push({ name: options.name, emulator: await start(options) });
	} catch (error) {
		await Promise.allSettled(started.map((s) => s.emulator.close()));
		throw error;
	}
	const stopped = new Set<number>();
	const stop = async (index: number) => {
		const server = started[index];
		if (!server) throw new Error(`emulator pool: no server ${index}`);
		if (stopped.has(index)) return;
		stopped.add(index);
		await server.emulator.close();
	};
	const restart = async (index: number) => {
		const server = started[index];
		if (!server || !stopped.has(index)) throw new Error(`emulator pool: server ${index} is not stopped`);
		const port = (url: string) => Number(new URL(url).port);
		const { urls } = server.emulator;
		const ports = {
			workflow: port(urls.workflow),
			router: port(urls.router),
			storage: port(urls.storage),
			cdn: port(urls.cdn),
			deployment: port(urls.deployment),
			selfHosted: port(urls.selfHosted)
		};
		server.emulator = await start({ ...servers[index]!, ports });
		stopped.delete(index);
	};
	return {
		servers: started,
		stop,
		restart,
		stopped: (index) => stopped.has(index),
		close: async () => {
			await Promise.all(started.map((_, i) => stop(i)));
		}
	};
}
