import { describe, expect, it } from 'vitest';
import { collapseSweeps, filterTimeline, NO_FILTER, type TimelineEntry } from './timeline';
import { askedOfBody, askedOfWorkflow, askedWords, modelEntry, workflowEntry } from '../../core/rules/run-entry';
import { MODEL_RUN_VERSION, type ModelRun, type StoredAsset } from '../../models/rules/model-run';
import { newWorkflowRun } from '../../workflows/rules/run-record';
import { timelineEntry } from '../../core/protocol/timeline-entry.fixture';

const entry = timelineEntry;

describe('the Runs timeline', () => {
	const all = [
		entry({ id: 'a', createdAt: 1 }),
		entry({ id: 'b', createdAt: 3, kind: 'model', subject: 'lumen/flux-pro', title: 'Flux', status: 'running' }),
		entry({ id: 'c', createdAt: 2, profileId: 'p2', status: 'failed' }),
		entry({ id: 'd', createdAt: 4, status: 'unknown', kind: 'model', subject: 'sonora/tts' })
	];

	it('shows a sweep as one entry that opens its grid, open while any cell is', () => {
		const cells = [
			entry({ id: 's1', createdAt: 10, sweepId: 'sw', asked: 'a boat' }),
			entry({ id: 's2', createdAt: 11, sweepId: 'sw', status: 'running' }),
			entry({ id: 's3', createdAt: 12, sweepId: 'sw', status: 'queued' })
		];
		const shown = collapseSweeps([...all, ...cells]);
		expect(shown.map((e) => e.id).sort()).toEqual(['a', 'b', 'c', 'd', 's1']);
		expect(shown.find((e) => e.id === 's1')).toMatchObject({
			title: 'Sweep: Text to image (3 runs)',
			href: '/sweeps/sw',
			status: 'running'
		});
		expect(shown.find((e) => e.id === 's1')).not.toHaveProperty('asked');
		expect(shown.find((e) => e.id === 's1')?.cellIds).toEqual(['s1', 's2', 's3']);
	});

	it('says how a finished sweep ended: what every cell is, else the cell that needs a look', () => {
		const sweep = (...statuses: TimelineEntry['status'][]) =>
			collapseSweeps(statuses.map((status, i) => entry({ id: `s${i}`, createdAt: i, sweepId: 'sw', status })))[0]?.status;
		expect(sweep('succeeded', 'succeeded')).toBe('succeeded');
		expect(sweep('succeeded', 'failed', 'cancelled')).toBe('failed');
		expect(sweep('cancelled', 'succeeded')).toBe('cancelled');
		expect(sweep('succeeded', 'queued')).toBe('running');
	});

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

	it('leaves a run a pool moved out of Cancelled and Failed: the run it became stands for it', () => {
		const runs = [
			entry({ id: 'moved', createdAt: 1, status: 'cancelled', movedTo: { runId: 'there', profileId: 'p2' } }),
			entry({ id: 'taken-off-a-gone-member', createdAt: 2, status: 'lost', movedTo: { runId: 'again', profileId: 'p2' } }),
			entry({ id: 'cancelled', createdAt: 3, status: 'cancelled' }),
			entry({ id: 'lost', createdAt: 4, status: 'lost' })
		];
		expect(filterTimeline(runs, { ...NO_FILTER, status: 'cancelled' }).map((e) => e.id)).toEqual(['cancelled']);
		expect(filterTimeline(runs, { ...NO_FILTER, status: 'failed' }).map((e) => e.id)).toEqual(['lost']);
		expect(filterTimeline(runs, NO_FILTER)).toHaveLength(4);
	});

	it('takes the worker search answer over the words of the entries, and filters by days and stars', () => {
		expect(filterTimeline(all, { ...NO_FILTER, text: 'seed:7' }, { found: new Set(['c', 'a']) }).map((e) => e.id)).toEqual(['c', 'a']);
		// The search has not answered: the entries' own words are matched meanwhile.
		expect(filterTimeline(all, { ...NO_FILTER, text: 'flux' }, {}).map((e) => e.id)).toEqual(['b']);
		const recent = [entry({ id: 'old', createdAt: 0 }), entry({ id: 'new', createdAt: 10 * 86_400_000 })];
		expect(filterTimeline(recent, { ...NO_FILTER, days: 7 }, { now: 11 * 86_400_000 }).map((e) => e.id)).toEqual(['new']);
		expect(filterTimeline(all, { ...NO_FILTER, starred: true }, { starred: new Set(['a']) }).map((e) => e.id)).toEqual(['a']);
		expect(filterTimeline(all, { ...NO_FILTER, starred: true })).toEqual([]);
		// A run made after the search was sent is matched by its own words until the search is asked again.
		expect(filterTimeline(all, { ...NO_FILTER, text: 'flux' }, { found: new Set(['a']), foundAt: 3 }).map((e) => e.id)).toEqual(['b', 'a']);
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
		expect(workflowEntry(run).expired).toBeUndefined();
		// A v2 job the server reports `expired` reads Expired in the list too, as on its page.
		const expired = {
			...run,
			status: 'failed' as const,
			error: { kind: 'execution' as const, title: 'JobExpired', message: '', exceptionType: 'JobExpired' }
		};
		expect(workflowEntry(expired)).toMatchObject({ status: 'failed', expired: true });
		// The row shows the first output's kind when it has no picture: here a waveform.
		expect(workflowEntry(run).firstOutput).toEqual({ kind: 'audio' });
		expect(
			workflowEntry({ ...run, outputs: [], texts: [{ nodeId: '5', text: '\n  A haiku about rain\nsecond line' }] }).firstOutput
		).toEqual({
			kind: 'text',
			line: 'A haiku about rain'
		});
		expect(workflowEntry({ ...run, outputs: [] }).firstOutput).toBeUndefined();
		// A v2 file or latent output has no preview: the row shows a generic file.
		const file = {
			nodeId: '9',
			kind: 'file' as const,
			ref: { filename: 'asset_1', subfolder: '', type: 'output' as const, label: 'x.latent' }
		};
		expect(workflowEntry({ ...run, outputs: [file] }).firstOutput).toEqual({ kind: 'other' });
	});

	const modelRun = (result: ModelRun['result']): ModelRun => ({
		schemaVersion: 1,
		kind: 'model',
		id: 'm',
		profileId: 'p',
		modelId: 'lumen/flux',
		title: 'Flux',
		mode: 'sync',
		body: {},
		idempotencyKey: 'k',
		keyCreatedAt: 1,
		status: 'succeeded',
		attempts: 1,
		replayed: false,
		createdAt: 1,
		...(result ? { result } : {})
	});
	const result = (more: Partial<NonNullable<ModelRun['result']>>) => ({
		contentType: 'application/json',
		size: 1,
		bytesKey: 'b',
		assets: [],
		...more
	});

	it.each([
		['a video', result({ assets: [{ path: 'video.url', kind: 'video' as const, source: 'url' as const }] }), { kind: 'video' }],
		['a file', result({ assets: [{ path: 'mesh.url', kind: 'file' as const, source: 'url' as const }] }), { kind: 'other' }],
		['a chat answer', result({ json: { output: 'Bonjour.\nComment ça va ?' } }), { kind: 'text', line: 'Bonjour.' }],
		['plain text', result({ contentType: 'text/plain', text: 'Hello there' }), { kind: 'text', line: 'Hello there' }],
		['no result yet', undefined, undefined]
	])('a model run with %s opens on the one run page and shows its first output', (_name, r, first) => {
		const entry = modelEntry(modelRun(r));
		expect(entry.href).toBe('/runs/m');
		expect(entry.firstOutput).toEqual(first);
	});
});

describe('what was asked', () => {
	it('reads a workflow prompt, skipping the negative encoder, and a model body', () => {
		const prompt = {
			'7': { class_type: 'CLIPTextEncode', inputs: { text: 'text, watermark' }, _meta: { title: 'CLIP Text Encode (Negative)' } },
			'6': { class_type: 'CLIPTextEncode', inputs: { text: '  a lighthouse\nat dusk ' }, _meta: { title: 'CLIP Text Encode (Positive)' } },
			'3': { class_type: 'KSampler', inputs: { seed: 1 } }
		};
		expect(askedOfWorkflow(prompt as never)).toBe('a lighthouse at dusk');
		expect(askedOfBody({ prompt: 'a red boat', steps: 4 })).toBe('a red boat');
		expect(
			askedOfBody({
				messages: [
					{ role: 'user', content: 'first' },
					{ role: 'user', content: 'last question' }
				]
			})
		).toBe('last question');
		expect(askedOfBody({ steps: 4 })).toBeUndefined();
		expect(askedOfBody(['prompt'])).toBeUndefined();
	});

	it('titles a row by its first words and finds it by any word of the prompt', () => {
		expect(askedWords('a lighthouse at dusk')).toBe('a lighthouse at dusk');
		expect(askedWords('one two three four five six seven eight nine ten eleven twelve thirteen', 30)).toBe('one two three four five six…');
		const run = newWorkflowRun({
			id: 'w1',
			profileId: 'p',
			title: 'Text to image',
			workflowId: null,
			prompt: { '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a purple galaxy in a bottle' } } },
			seeds: {},
			partner: false,
			now: 1
		});
		const entry = workflowEntry(run);
		expect(entry.asked).toBe('a purple galaxy in a bottle');
		expect(filterTimeline([entry], { ...NO_FILTER, text: 'GALAXY' })).toHaveLength(1);
		expect(filterTimeline([entry], { ...NO_FILTER, text: 'nebula' })).toHaveLength(0);
	});
});

describe('a model run in the timeline', () => {
	const run = (assets: StoredAsset[]): ModelRun => ({
		schemaVersion: MODEL_RUN_VERSION,
		kind: 'model',
		id: 'm1',
		profileId: 'p1',
		modelId: 'tidal/wave-1-t2v',
		title: 'tidal/wave-1-t2v: rain',
		mode: 'sync',
		body: { prompt: 'rain' },
		idempotencyKey: 'k',
		keyCreatedAt: 1,
		status: 'succeeded',
		attempts: 1,
		replayed: false,
		createdAt: 1,
		result: { contentType: 'application/json', size: 10, bytesKey: 'body', assets }
	});
	const asset = (kind: StoredAsset['kind'], bytesKey?: string, mime?: string): StoredAsset => ({
		path: `${kind}.url`,
		kind,
		source: 'url',
		...(bytesKey ? { bytesKey } : {}),
		...(mime ? { mime } : {})
	});

	it.each<[string, StoredAsset[], TimelineEntry['modelThumb']]>([
		['an image first', [asset('video', 'v', 'video/mp4'), asset('image', 'i', 'image/jpeg')], { key: 'i', mime: 'image/jpeg' }],
		['else a video, for a frame of it', [asset('audio', 'a'), asset('video', 'v', 'video/mp4')], { key: 'v', mime: 'video/mp4' }],
		['a video of unknown type is read as WebM', [asset('video', 'v')], { key: 'v', mime: 'video/webm' }],
		['only saved bytes', [asset('image'), asset('video')], null],
		['nothing to show for sound alone', [asset('audio', 'a', 'audio/wav')], null]
	])('is pictured by %s', (_name, assets, thumb) => {
		expect(modelEntry(run(assets)).modelThumb).toEqual(thumb);
	});
});
