/**
 * POST /jobs, the checks in the contract's order: the body, reserved fields, `extra_data`, the
 * graph's format, the account (402, 429), `core/ASSET` references resolved to the caller's ready
 * assets, then the engine's validation. The engine job gets the v2 id, so v1 sockets see it.
 */
import { basename } from 'node:path';
import type { ApiPrompt, NodeErrors, SubmitRequest } from '../../../src/lib/workflows/protocol/workflow-api';
import { isObject } from '../http-util';
import type { V2Core, SurfaceState } from './core';
import { newId } from './envelope';
import { errorAnswer, type Answer } from './keyed';

export function isUiFormat(workflow: Record<string, unknown>): boolean {
	return Array.isArray(workflow['nodes']) && 'links' in workflow;
}

type Resolved = { ok: true; prompt: ApiPrompt } | { ok: false; message: string; nodeId: string; input: string };

/** Replaces each `{__type: "core/ASSET", info: {id}}` input with a stored input file over the asset's blob. */
function resolveAssets(core: V2Core, surface: SurfaceState, workflow: Record<string, unknown>): Resolved {
	const prompt = JSON.parse(JSON.stringify(workflow)) as ApiPrompt;
	for (const [nodeId, node] of Object.entries(prompt)) {
		if (!isObject(node) || !isObject(node.inputs)) continue;
		for (const [input, value] of Object.entries(node.inputs)) {
			if (!isObject(value) || value['__type'] !== 'core/ASSET') continue;
			const info = value['info'];
			const id = isObject(info) ? info['id'] : undefined;
			const fail = (message: string): Resolved => ({ ok: false, message, nodeId, input });
			if (typeof id !== 'string' || id === '') return fail('The reference has no info.id.');
			const asset = core.assets.get(id, surface.rules.name);
			if (!asset) return fail(`No asset ${id} of yours.`);
			if (!core.isReady(asset)) return fail(`The asset ${id} is still being scanned.`);
			const filename = `${asset.id}_${basename(asset.filePath ?? 'file')}`;
			if (!core.engine.files.get('input', filename)) {
				core.engine.files.put({ type: 'input', filename, subfolder: '', hash: asset.blobHash, mime: asset.contentType, size: asset.size });
			}
			node.inputs[input] = filename;
		}
	}
	return { ok: true, prompt };
}

/** `details.node_errors`: per node, `[{field, reason}]` (contract) or ComfyUI's own shape (the proxy). */
function nodeErrorsDetail(surface: SurfaceState, nodeErrors: NodeErrors): Record<string, unknown> {
	if (surface.rules.proxyRoutes) return nodeErrors as unknown as Record<string, unknown>;
	const out: Record<string, Array<{ field: string | null; reason: string }>> = {};
	for (const [id, entry] of Object.entries(nodeErrors)) {
		out[id] = entry.errors.map((e) => ({ field: e.extra_info.input_name ?? null, reason: e.message }));
	}
	return out;
}

function callerKey(core: V2Core, surface: SurfaceState): string | null {
	if (surface.rules.name === 'managed') return core.state.apiKey;
	if (surface.rules.name === 'deployment') return core.deploymentKey;
	return null;
}

export function submitJob(core: V2Core, surface: SurfaceState, body: Record<string, unknown>): Answer {
	const rules = surface.rules;
	for (const reserved of ['webhook_url', 'inputs']) {
		if (reserved in body) return errorAnswer(422, 'invalid_request', `"${reserved}" is reserved and not accepted.`);
	}
	const extra = body['extra_data'] ?? {};
	if (!isObject(extra)) return errorAnswer(422, 'invalid_request', '"extra_data" must be an object.');
	if (rules.onlyComfyKeyExtra) {
		const other = Object.keys(extra).filter((k) => k !== 'api_key_comfy_org');
		if (other.length > 0) return errorAnswer(422, 'invalid_request', `extra_data accepts only api_key_comfy_org, not ${other.join(', ')}.`);
	}
	const workflow = body['workflow'];
	if (!isObject(workflow))
		return errorAnswer(422, 'invalid_workflow', '"workflow" must be the API-format graph (an object keyed by node id).', {
			node_errors: {}
		});
	if (isUiFormat(workflow))
		return errorAnswer(422, 'workflow_format_ui', 'This is a UI-format export (nodes/links): export the workflow in API format.');
	const faults = core.state.faults;
	if (rules.credits && faults.v2InsufficientCredits)
		return errorAnswer(402, 'insufficient_credits', 'The account has no credits left.', null, false);
	if (faults.v2QueueFull)
		return { ...errorAnswer(429, 'queue_full', 'The queue is full: retry later.', null, false), headers: { 'Retry-After': '5' } };
	// A queue of bounded depth: refused while that many jobs wait, accepted again as they start.
	if (faults.v2QueueLimit > 0 && core.engine.book.pendingJobs().length >= faults.v2QueueLimit)
		return { ...errorAnswer(429, 'queue_full', 'The queue is full: retry later.', null, false), headers: { 'Retry-After': '1' } };
	const resolved = resolveAssets(core, surface, workflow);
	if (!resolved.ok) return errorAnswer(422, 'missing_asset', resolved.message, { node_id: resolved.nodeId, input: resolved.input });

	// The partner key travels as api_key_comfy_org; the engine checks the account's key.
	const partnerKey = extra['api_key_comfy_org'];
	const mine = callerKey(core, surface);
	const keyOk = typeof partnerKey === 'string' && partnerKey !== '' && (mine === null || partnerKey === mine);
	const extraData: Record<string, unknown> = { ...extra };
	delete extraData['api_key_comfy_org'];
	if (keyOk) extraData['api_key_service_org'] = core.state.apiKey;

	const id = newId(rules, 'job');
	// Recorded before the engine starts it: its first events may come during submit.
	const rec = core.jobs.add(id, rules);
	const outcome = core.engine.submit({ prompt: resolved.prompt, extra_data: extraData, prompt_id: id } as SubmitRequest);
	if (!outcome.ok) {
		core.jobs.records.delete(id);
		return errorAnswer(422, 'invalid_workflow', outcome.error.message, { node_errors: nodeErrorsDetail(surface, outcome.nodeErrors) });
	}
	return { status: 201, body: core.jobBody(rec, true), record: true };
}
