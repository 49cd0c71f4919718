/** The model-runs part of the worker API (issue: model runs in the app). */
import type { Result } from '../../domain/errors';
import type { CatalogView } from '../../domain/model-catalog';
import type { RouterModelListEntry } from '../../wire/router-api';
import type { SchemaView } from './schema-service';

export type { SchemaView };

export interface ModelApi {
	/** The saved catalog at once (with its age); a walk refreshes it in the background, page by page as events. */
	modelCatalog(input: { profileId: string; refresh?: boolean }): Promise<Result<CatalogView>>;
	/** One model's id, provider and billing: from the catalog when known, else from the detail route. */
	modelEntry(input: { profileId: string; modelId: string }): Promise<Result<RouterModelListEntry>>;
	/** The model's schema document, revalidated with If-None-Match; the saved copy when offline. */
	modelSchema(input: { profileId: string; modelId: string }): Promise<Result<SchemaView>>;
}

export type ModelEvent = { type: 'model-catalog'; view: CatalogView };
