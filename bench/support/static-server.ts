/** A tiny static server on loopback for benchmark pages: fixed paths, bodies held in memory. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticFile {
	type: string;
	body: string | Uint8Array;
}

export interface StaticServer {
	url: string;
	close(): Promise<void>;
}

export async function serveStatic(files: Record<string, StaticFile>): Promise<StaticServer> {
	const server = createServer((request, response) => {
		const file = files[(request.url ?? '/').split('?')[0]!];
		if (!file) return void response.writeHead(404).end('not found');
		response.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
