/** The model feature of the worker: catalog, schemas and runs, behind one `api()`. */
import { ok } from '../../domain/errors';
import type { WorkerContext } from '../context';
import type { ModelApi } from './api';
import { CatalogService } from './catalog-service';
import { SchemaService } from './schema-service';

export interface ModelDeps {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

export const REAL_DEPS: ModelDeps = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
	random: () => Math.random()
};

export class ModelService {
	readonly catalog: CatalogService;
	readonly schemas: SchemaService;

	constructor(
		readonly ctx: WorkerContext,
		deps: ModelDeps = REAL_DEPS
	) {
		this.catalog = new CatalogService(ctx, deps);
		this.schemas = new SchemaService(ctx, deps.now);
	}

	api(): ModelApi {
		return {
			modelCatalog: (i) => this.catalog.catalog(i),
			modelEntry: async (i) => {
				const known = await this.catalog.entry(i.profileId, i.modelId);
				return known ? ok(known) : this.schemas.detail(i);
			},
			modelSchema: (i) => this.schemas.schema(i)
		};
	}
}
