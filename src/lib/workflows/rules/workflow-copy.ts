/**
 * "Copy as code" for a workflow's current inputs: the API-format prompt POSTed to the profile's
 * workflow service as Runboard would send it (v1: `/api/prompt`; v2: `/api/v2/jobs`), as curl,
 * JavaScript (fetch) or Python (requests). The key is read from an environment variable, never
 * written out; a local ComfyUI takes none.
 */
import type { ApiPrompt } from '../protocol/workflow-api';
import { isV2Preset, type Profile } from '../../core/rules/profile';

export const WORKFLOW_KEY_VARIABLE = 'WORKFLOW_API_KEY';

export interface WorkflowTarget {
	url: string;
	/** How the key is sent, or null where the service takes none. */
	auth: 'x-api-key' | 'bearer' | null;
	/** v2 jobs are keyed: the same key sent twice starts one job. */
	idempotent: boolean;
	body: Record<string, unknown>;
}

/**
 * Where and how this profile's runs are sent. `onV2`: the worker found that this Cloud profile's
 * service offers v2, so its runs go there (v1 is deprecated); otherwise a Cloud profile is shown on v1.
 */
export function workflowTarget(profile: Pick<Profile, 'preset' | 'workflowUrl'>, prompt: ApiPrompt, onV2 = false): WorkflowTarget {
	const base = profile.workflowUrl.replace(/\/+$/, '');
	if (isV2Preset(profile.preset) || (onV2 && profile.preset === 'cloud'))
		return {
			url: `${base}/api/v2/jobs`,
			auth: profile.preset === 'self-hosted-proxy' ? null : 'bearer',
			idempotent: true,
			body: { workflow: prompt }
		};
	return { url: `${base}/api/prompt`, auth: profile.preset === 'local-comfyui' ? null : 'x-api-key', idempotent: false, body: { prompt } };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function workflowAsCurl(target: WorkflowTarget): string {
	return [
		`curl -X POST ${shellQuote(target.url)}`,
		...(target.auth === 'bearer' ? [`  -H "Authorization: Bearer $${WORKFLOW_KEY_VARIABLE}"`] : []),
		...(target.auth === 'x-api-key' ? [`  -H "X-API-Key: $${WORKFLOW_KEY_VARIABLE}"`] : []),
		`  -H 'Content-Type: application/json'`,
		...(target.idempotent ? [`  -H "Idempotency-Key: $(uuidgen)"`] : []),
		`  --data-binary ${shellQuote(JSON.stringify(target.body))}`
	].join(' \\\n');
}

export function workflowAsFetch(target: WorkflowTarget): string {
	const env = `process.env.${WORKFLOW_KEY_VARIABLE}`;
	return [
		`const response = await fetch(${JSON.stringify(target.url)}, {`,
		`\tmethod: 'POST',`,
		`\theaders: {`,
		...(target.auth === 'bearer' ? [`\t\tAuthorization: \`Bearer \${${env}}\`,`] : []),
		...(target.auth === 'x-api-key' ? [`\t\t'X-API-Key': ${env},`] : []),
		...(target.idempotent ? [`\t\t'Idempotency-Key': crypto.randomUUID(),`] : []),
		`\t\t'Content-Type': 'application/json'`,
		`\t},`,
		`\tbody: JSON.stringify(${JSON.stringify(target.body, null, 2).replace(/\n/g, '\n\t')})`,
		`});`,
		`console.log(response.status, await response.json());`
	].join('\n');
}

/** JSON's string escapes are valid in Python, so a JSON string is a Python string literal. */
const pyString = (text: string) => JSON.stringify(text);

export function workflowAsPython(target: WorkflowTarget): string {
	const env = `os.environ[${pyString(WORKFLOW_KEY_VARIABLE)}]`;
	return [
		`import json${target.auth ? ', os' : ''}${target.idempotent ? ', uuid' : ''}`,
		'import requests',
		'',
		`body = json.loads(${pyString(JSON.stringify(target.body))})`,
		'response = requests.post(',
		`    ${pyString(target.url)},`,
		'    headers={',
		...(target.auth === 'bearer' ? [`        "Authorization": "Bearer " + ${env},`] : []),
		...(target.auth === 'x-api-key' ? [`        "X-API-Key": ${env},`] : []),
		...(target.idempotent ? ['        "Idempotency-Key": str(uuid.uuid4()),'] : []),
		'    },',
		'    json=body,',
		'    timeout=60,',
		')',
		'print(response.status_code, response.json())'
	].join('\n');
}
