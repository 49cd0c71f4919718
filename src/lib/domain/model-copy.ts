/** "Copy as JSON" and "copy as curl" for a model input, with the key never written out. */
import type { Json } from '../wire/json';
import { modelPath } from './model-catalog';

export function asJson(body: Json): string {
	return JSON.stringify(body, null, 2);
}

function shellQuote(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command for a synchronous run. The key is a shell variable, never the saved key itself. */
export function asCurl(routerUrl: string, modelId: string, body: Json): string {
	const url = `${routerUrl.replace(/\/+$/, '')}/v2/models/${modelPath(modelId)}`;
	return [
		`curl -X POST ${shellQuote(url)}`,
		`  -H "X-API-Key: $ROUTER_API_KEY"`,
		`  -H 'Content-Type: application/json'`,
		`  -H "Idempotency-Key: $(uuidgen)"`,
		`  --data-binary ${shellQuote(JSON.stringify(body))}`
	].join(' \\\n');
}
