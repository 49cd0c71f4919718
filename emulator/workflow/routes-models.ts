/**
 * ComfyUI's model browsing routes over the model shelf: `GET /models` names the folders, `GET
 * /models/{folder}` lists a folder's files; an unknown folder is a 404 with an empty body, as ComfyUI answers it.
 */
import type { FastifyInstance } from 'fastify';
import { both } from './http-util';
import { MODEL_SHELF, shelfFolders } from './model-shelf';
import { shapeFolder, type ServerShape } from './server-shape';

export function installModelRoutes(app: FastifyInstance, shape: ServerShape = {}): void {
	for (const path of both('/models')) app.get(path, async () => shelfFolders());
	for (const path of both('/models/:folder')) {
		app.get<{ Params: { folder: string } }>(path, async (request, reply) => {
			const files = Object.hasOwn(MODEL_SHELF, request.params.folder) ? MODEL_SHELF[request.params.folder] : undefined;
			if (!files) return reply.code(404).send();
			return shapeFolder(files, shape);
		});
	}
}
