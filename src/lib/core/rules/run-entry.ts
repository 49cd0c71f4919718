/**
 * Each run kind's record as the run kernel's timeline entry: what was asked, the first output, the
 * thumbnail. Pure, so the worker's index and the page's list make the same entry from the same record.
 */
import type { Json } from '../protocol/json';
import type { ModelRun } from '../protocol/model-run';
import type { FirstOutput, TimelineEntry } from '../protocol/run-kernel';
import { isExpired, type ApiPrompt, type WorkflowRun } from '../protocol/workflow-run';
import { resultParts } from './result-parts';

const ASKED_MAX = 300;
const LINE_MAX = 120;

function firstLine(text: string): string | undefined {
	const line = text
		.split('\n')
		.map((l) => l.trim())
		.find((l) => l !== '');
	if (!line) return undefined;
	return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX - 1)}…` : line;
}

const textOutput = (text: string | undefined): FirstOutput | undefined => {
	const line = text === undefined ? undefined : firstLine(text);
	return line ? { kind: 'text', line } : undefined;
};

function firstOfWorkflow(run: WorkflowRun): FirstOutput | undefined {
	const media = run.outputs[0];
	return media ? { kind: media.kind === 'file' ? 'other' : media.kind } : textOutput(run.texts?.[0]?.text);
}

function firstOfModel(run: ModelRun): FirstOutput | undefined {
	const result = run.result;
	if (!result) return undefined;
	const asset = result.assets[0];
	if (asset) return { kind: asset.kind === 'file' ? 'other' : asset.kind };
	if (result.text !== undefined) return textOutput(result.text) ?? { kind: 'text' };
	if (result.json !== undefined) return textOutput(resultParts(result.json, []).texts[0]?.text) ?? { kind: 'other' };
	return undefined;
}

const withFirst = (first: FirstOutput | undefined) => (first ? { firstOutput: first } : {});
const PROMPT_NAMES = ['prompt', 'text', 'positive', 'input', 'question'];

const bounded = (text: string) => {
	const t = text.replace(/\s+/g, ' ').trim();
	return t.length > ASKED_MAX ? `${t.slice(0, ASKED_MAX - 1)}…` : t;
};

/**
 * A workflow's prompt text: the first text input named like a prompt, in node order, skipping nodes
 * titled negative (ComfyUI's CLIPTextEncode pair), so "text, watermark" is never what was asked.
 */
export function askedOfWorkflow(prompt: ApiPrompt): string | undefined {
	const ids = Object.keys(prompt).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
	for (const id of ids) {
		const node = prompt[id];
		if (!node || typeof node.inputs !== 'object' || node.inputs === null) continue;
		if (/negative/i.test(node._meta?.title ?? '')) continue;
		for (const name of PROMPT_NAMES) {
			const value = Object.hasOwn(node.inputs, name) ? (node.inputs as Record<string, unknown>)[name] : undefined;
			if (typeof value === 'string' && value.trim()) return bounded(value);
		}
	}
	return undefined;
}

/** A model request's prompt text: its `prompt`, `text` or similar field, or the last chat message's text. */
export function askedOfBody(body: Json): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	for (const name of PROMPT_NAMES) {
		const value = Object.hasOwn(body, name) ? body[name] : undefined;
		if (typeof value === 'string' && value.trim()) return bounded(value);
	}
	const messages = Object.hasOwn(body, 'messages') ? body['messages'] : undefined;
	if (Array.isArray(messages))
		for (const m of [...messages].reverse())
			if (m && typeof m === 'object' && !Array.isArray(m) && typeof m['content'] === 'string' && m['content'].trim())
				return bounded(m['content']);
	return undefined;
}

/** The first words of what was asked, for a row's title: "a red boat at dawn…". */
export function askedWords(asked: string, max = 60): string {
	if (asked.length <= max) return asked;
	const cut = asked.slice(0, max);
	const space = cut.lastIndexOf(' ');
	return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

const duration = (start?: number, end?: number) => (start && end && end >= start ? end - start : null);

const withAsked = (asked: string | undefined) => (asked ? { asked } : {});

export function workflowEntry(run: WorkflowRun): TimelineEntry {
	const image = run.outputs.findIndex((o) => o.kind === 'image');
	return {
		id: run.id,
		kind: 'workflow',
		profileId: run.profileId,
		title: run.title,
		...withAsked(askedOfWorkflow(run.prompt)),
		subject: run.workflowId,
		status: run.status,
		...(isExpired(run) ? { expired: true } : {}),
		createdAt: run.createdAt,
		durationMs: duration(run.startedAt, run.finishedAt),
		seed: Object.values(run.seeds)[0] ?? null,
		credits: null,
		thumbnail: image >= 0 ? image : null,
		modelThumb: null,
		...withFirst(firstOfWorkflow(run)),
		elsewhere: run.elsewhere === true,
		href: `/runs/${run.id}`,
		promptId: run.promptId,
		...(run.sweep ? { sweepId: run.sweep.id } : {}),
		...(run.movedTo ? { movedTo: { runId: run.movedTo.runId, profileId: run.movedTo.profileId } } : {}),
		...(run.pool?.movedFrom ? { movedFrom: { runId: run.pool.movedFrom.runId, profileId: run.pool.movedFrom.profileId } } : {})
	};
}

export function modelEntry(run: ModelRun): TimelineEntry {
	const assets = run.result?.assets ?? [];
	// A video-only result is shown by a frame of its video (the page draws it from these bytes).
	const picture = assets.find((a) => a.kind === 'image' && a.bytesKey) ?? assets.find((a) => a.kind === 'video' && a.bytesKey);
	return {
		id: run.id,
		kind: 'model',
		profileId: run.profileId,
		title: run.title,
		...withAsked(askedOfBody(run.body)),
		subject: run.modelId,
		status: run.status,
		createdAt: run.createdAt,
		durationMs: duration(run.startedAt ?? run.createdAt, run.finishedAt),
		seed: Object.values(run.seeds ?? {})[0] ?? null,
		credits: run.creditsUsed ?? null,
		thumbnail: null,
		modelThumb: picture?.bytesKey
			? { key: picture.bytesKey, mime: picture.mime ?? (picture.kind === 'video' ? 'video/webm' : 'image/png') }
			: null,
		...withFirst(firstOfModel(run)),
		elsewhere: false,
		href: `/runs/${run.id}`,
		promptId: null,
		...(run.sweep ? { sweepId: run.sweep.id } : {})
	};
}
