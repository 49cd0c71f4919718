/** "Copy as JSON" and "copy as curl" for a model input, with the key never written out. */
import type { Json } from '../../core/protocol/json';
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

/** JavaScript (fetch) for a synchronous run; the key is read from the environment (Node's `process.env`). */
export function asFetch(routerUrl: string, modelId: string, body: Json): string {
	const url = `${routerUrl.replace(/\/+$/, '')}/v2/models/${modelPath(modelId)}`;
	return [
		`const response = await fetch(${JSON.stringify(url)}, {`,
		`\tmethod: 'POST',`,
		`\theaders: {`,
		`\t\t'X-API-Key': process.env.ROUTER_API_KEY,`,
		`\t\t'Content-Type': 'application/json',`,
		`\t\t'Idempotency-Key': crypto.randomUUID()`,
		`\t},`,
		`\tbody: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n\t')})`,
		`});`,
		`console.log(response.status, response.headers.get('content-type'));`
	].join('\n');
}

/** A Python string literal (JSON's escapes are valid Python), for the URL. */
const pyString = (text: string) => JSON.stringify(text);

/** Python (requests) for a synchronous run; the key is read from the environment. */
export function asPython(routerUrl: string, modelId: string, body: Json): string {
	const url = `${routerUrl.replace(/\/+$/, '')}/v2/models/${modelPath(modelId)}`;
	return [
		'import json, os, uuid',
		'import requests',
		'',
		`body = json.loads(${pyString(JSON.stringify(body))})`,
		'response = requests.post(',
		`    ${pyString(url)},`,
		'    headers={',
		'        "X-API-Key": os.environ["ROUTER_API_KEY"],',
		'        "Idempotency-Key": str(uuid.uuid4()),',
		'    },',
		'    json=body,',
		'    timeout=660,',
		')',
		'print(response.status_code, response.headers.get("content-type"))'
	].join('\n');
}
