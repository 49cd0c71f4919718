/**
 * What to call a model on its page and tile. A schema document's title often names the document
 * ("Queue OpenAPI for fal-ai/flux/dev"), not the model; then the model's id says it better ("Flux dev").
 */

/** A title that names the document or the API rather than the model. */
export function namesTheDocument(title: string, modelId: string): boolean {
	if (/\b(open ?api|swagger|api|schema|spec|specification|endpoint)\b/i.test(title)) return true;
	return modelId.length > 0 && title.toLowerCase().includes(modelId.toLowerCase());
}

/** "fal-ai/flux/dev" is "Flux dev", "lumen/flux-1" is "Flux 1": the id after its provider, in words. */
export function nameFromId(modelId: string): string {
	const parts = modelId.split('/').filter(Boolean);
	const words = (parts.length > 1 ? parts.slice(1) : parts).join(' ').replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
	return words ? words.charAt(0).toUpperCase() + words.slice(1) : modelId;
}

/** The heading of a model: the document's title when it names the model, else the name in its id. */
export function modelTitle(documentTitle: string | null | undefined, modelId: string): string {
	const title = documentTitle?.trim();
	return title && !namesTheDocument(title, modelId) ? title : nameFromId(modelId);
}
