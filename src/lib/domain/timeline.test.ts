import { describe, expect, it } from 'vitest';
import { filterTimeline, NO_FILTER, workflowEntry, type TimelineEntry } from './timeline';
import { newWorkflowRun } from './run-record';

const entry = (over: Partial<TimelineEntry>): TimelineEntry => ({
	id: 'x',
	kind: 'workflow',
	profileId: 'p1',
	title: 'Text to image',
	subject: null,
	status: 'succeeded',
	createdAt: 1,
	durationMs: null,
	seed: null,
	credits: null,
	thumbnail: null,
	modelThumb: null,
	elsewhere: false,
	href: '/runs/x',
	promptId: null,
	...over
});

describe('the Runs timeline', () => {
	const all = [
		entry({ id: 'a', createdAt: 1 }),
		entry({ id: 'b', createdAt: 3, kind: 'model', subject: 'lumen/flux-pro', title: 'Flux', status: 'running' }),
		entry({ id: 'c', createdAt: 2, profileId: 'p2', status: 'failed' }),
		entry({ id: 'd', createdAt: 4, status: 'unknown', kind: 'model', subject: 'sonora/tts' })
	];

	it('lists newest first', () => {
		expect(filterTimeline(all, NO_FILTER).map((e) => e.id)).toEqual(['d', 'b', 'c', 'a']);
	});

	it('filters by profile, kind, status and text together', () => {
		expect(filterTimeline(all, { ...NO_FILTER, profileId: 'p2' }).map((e) => e.id)).toEqual(['c']);
		expect(filterTimeline(all, { ...NO_FILTER, kind: 'model' }).map((e) => e.id)).toEqual(['d', 'b']);
		expect(filterTimeline(all, { ...NO_FILTER, status: 'open' }).map((e) => e.id)).toEqual(['b']);
		expect(filterTimeline(all, { ...NO_FILTER, status: 'failed' }).map((e) => e.id)).toEqual(['d', 'c']);
		expect(filterTimeline(all, { ...NO_FILTER, text: 'FLUX' }).map((e) => e.id)).toEqual(['b']);
		expect(filterTimeline(all, { ...NO_FILTER, text: 'tts', kind: 'model' }).map((e) => e.id)).toEqual(['d']);
	});

	it('summarises a workflow run with its duration, seed and first image', () => {
		const run = {
			...newWorkflowRun({
				id: 'r',
				profileId: 'p',
				title: 'T',
				workflowId: 'w',
				prompt: {},
				seeds: { '3.seed': 42 },
				partner: false,
				now: 10
			}),
			status: 'succeeded' as const,
			startedAt: 100,
			finishedAt: 2600,
			outputs: [
				{ nodeId: '9', kind: 'audio' as const, ref: { filename: 'a.wav', subfolder: '', type: 'output' as const } },
				{ nodeId: '9', kind: 'image' as const, ref: { filename: 'a.png', subfolder: '', type: 'output' as const } }
			]
		};
		expect(workflowEntry(run)).toMatchObject({ durationMs: 2500, seed: 42, thumbnail: 1, subject: 'w', href: '/runs/r' });
	});
});
