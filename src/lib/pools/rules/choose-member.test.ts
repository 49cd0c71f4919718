import { describe, expect, it } from 'vitest';
import type { ApiPrompt } from '../../core/protocol/workflow-run';
import type { PoolMember } from '../protocol/pool';
import { chooseMember, expectedFinishMs, typicalDuration, type ChoiceInput, type MemberState } from './choose-member';
import { listKey, workNeeds, type MemberDefinitions } from './work-needs';

const prompt: ApiPrompt = {
	'4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
	'6': { class_type: 'CLIPTextEncode', inputs: { text: 'a lighthouse', clip: ['4', 1] } },
	'10': { class_type: 'LoadImage', inputs: { image: '0123456789ab_photo.png' } },
	'3': { class_type: 'KSampler', inputs: { seed: 1, model: ['4', 0] } }
};
const work = workNeeds(prompt);

function defs(checkpoints: string[], types = ['CheckpointLoaderSimple', 'CLIPTextEncode', 'LoadImage', 'KSampler']): MemberDefinitions {
	return {
		nodeTypes: new Set(types),
		lists: new Map([
			[listKey('CheckpointLoaderSimple', 'ckpt_name'), checkpoints],
			[listKey('LoadImage', 'image'), []]
		])
	};
}

const SHELF = ['sd_xl_base_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'];

function member(profileId: string, over: Partial<MemberState> = {}, m: Partial<PoolMember> = {}): MemberState {
	return {
		member: { profileId, weight: 1, enabled: true, paid: false, pricePerRunCents: null, ...m },
		name: profileId.toUpperCase(),
		definitions: defs(SHELF),
		queueLength: 0,
		concurrency: 1,
		recentDurationsMs: [10_000],
		...over
	};
}

function choose(members: MemberState[], over: Partial<ChoiceInput> = {}) {
	return chooseMember({
		work,
		members,
		cloudThresholdMs: 60_000,
		spendCapCents: null,
		spentCents: 0,
		pin: null,
		unknownDurationMs: 20_000,
		...over
	});
}

const reasons = (choice: ReturnType<typeof choose>) => Object.fromEntries(choice.skipped.map((s) => [s.profileId, s.reason]));

describe('what a workflow needs', () => {
	it('lists each node type once and the model files by node input, not the input pictures', () => {
		expect(work.nodeTypes).toEqual(['KSampler', 'CheckpointLoaderSimple', 'CLIPTextEncode', 'LoadImage']);
		expect(work.models).toEqual([
			{ nodeId: '4', classType: 'CheckpointLoaderSimple', input: 'ckpt_name', name: 'sd_xl_base_1.0.safetensors' }
		]);
	});
});

describe('choosing a member', () => {
	it('sends the run where it is expected to finish first', () => {
		const choice = choose([member('a', { queueLength: 2 }), member('b', { queueLength: 0 }), member('c', { queueLength: 1 })]);
		expect(choice).toMatchObject({ ok: true, profileId: 'b', expectedFinishMs: 10_000 });
		expect(reasons(choice)).toEqual({ a: 'slower', c: 'slower' });
	});

	it('reads a slow member by its own recent durations', () => {
		const choice = choose([member('slow', { recentDurationsMs: [40_000, 38_000, 41_000] }), member('fast', { queueLength: 2 })]);
		// fast: 3 rounds of 10 s = 30 s; slow: 1 round of 40 s
		expect(choice).toMatchObject({ ok: true, profileId: 'fast', expectedFinishMs: 30_000 });
	});

	it('skips a member that lacks a model, naming the file and the closest one it has', () => {
		const choice = choose([member('a', { definitions: defs(['sd_xl_base_0.9.safetensors']) }), member('b', { queueLength: 5 })]);
		expect(choice).toMatchObject({ ok: true, profileId: 'b' });
		const skip = choice.skipped.find((s) => s.profileId === 'a');
		expect(skip?.reason).toBe('missing-model');
		expect(skip?.message).toBe(
			'A lacks the model file sd_xl_base_1.0.safetensors (the closest it has is sd_xl_base_0.9.safetensors, a different file).'
		);
	});

	it('takes the same file in another folder, and says the name to send', () => {
		const choice = choose([member('a', { definitions: defs(['SDXL/sd_xl_base_1.0.safetensors']) })]);
		expect(choice).toMatchObject({
			ok: true,
			profileId: 'a',
			renames: [{ nodeId: '4', input: 'ckpt_name', from: 'sd_xl_base_1.0.safetensors', to: 'SDXL/sd_xl_base_1.0.safetensors' }]
		});
	});

	it('skips a member that lacks a node type, one switched off, and one not answering', () => {
		const choice = choose([
			member('a', { definitions: defs(SHELF, ['CheckpointLoaderSimple', 'CLIPTextEncode', 'LoadImage']) }),
			member('b', {}, { enabled: false }),
			member('c', { definitions: null, unreachable: 'the connection was refused' }),
			member('d', { queueLength: 9 })
		]);
		expect(choice).toMatchObject({ ok: true, profileId: 'd' });
		expect(reasons(choice)).toEqual({ a: 'missing-node', b: 'off', c: 'unreachable' });
		expect(choice.skipped.find((s) => s.profileId === 'c')?.message).toBe('C is not answering: the connection was refused.');
	});

	it('says why when no member can run it', () => {
		const choice = choose([member('a', { definitions: defs([]) }), member('b', {}, { enabled: false })]);
		expect(choice).toMatchObject({ ok: false, message: 'No member of this pool can run this workflow now.' });
		expect(reasons(choice)).toEqual({ a: 'missing-model', b: 'off' });
	});

	it('prefers a member by its weight', () => {
		// heavy: 2 rounds of 10 s over weight 3 scores 6.7 s, ahead of light's 10 s
		const choice = choose([member('light', { queueLength: 0 }), member('heavy', { queueLength: 1 }, { weight: 3 })]);
		expect(choice).toMatchObject({ ok: true, profileId: 'heavy' });
	});

	it('counts the rounds of a member that runs several jobs at once', () => {
		expect(expectedFinishMs(member('a', { queueLength: 3, concurrency: 2 }), 1)).toBe(20_000);
		expect(expectedFinishMs(member('a', { recentDurationsMs: [] }), 7_000)).toBe(7_000);
	});
});

describe('paid members', () => {
	const cloud = (over: Partial<MemberState> = {}, price: number | null = 4) =>
		member('cloud', { recentDurationsMs: [5_000], ...over }, { paid: true, pricePerRunCents: price });

	it('wait while a free member finishes within the threshold', () => {
		const choice = choose([member('home', { queueLength: 4 }), cloud()]); // home: 50 s, threshold 60 s
		expect(choice).toMatchObject({ ok: true, profileId: 'home' });
		expect(choice.skipped).toEqual([
			{
				profileId: 'cloud',
				reason: 'paid-under-threshold',
				message: 'CLOUD costs money and HOME is expected to finish in 50 s, within the 1 min 0 s threshold.'
			}
		]);
	});

	it('take the run once the wait elsewhere passes the threshold', () => {
		expect(choose([member('home', { queueLength: 6 }), cloud()])).toMatchObject({ ok: true, profileId: 'cloud' });
	});

	it('take the run when no free member can run it', () => {
		expect(choose([member('home', { definitions: defs([]) }), cloud()])).toMatchObject({ ok: true, profileId: 'cloud' });
	});

	it.each([
		// cap, committed, price: whether the cloud may take it
		[null, 10_000, 4, true],
		[100, 0, 4, true],
		[100, 96, 4, true], // exactly at the cap after it
		[100, 97, 4, false],
		[100, 100, 4, false],
		[50, 40, 15, false],
		[0, 0, 1, false]
	])('within a cap of %s cents with %s committed, a run at %s cents goes to the cloud: %s', (cap, spent, price, taken) => {
		const choice = choose([member('home', { queueLength: 6 }), cloud({}, price)], { spendCapCents: cap, spentCents: spent });
		expect(choice).toMatchObject({ ok: true, profileId: taken ? 'cloud' : 'home' });
		if (!taken) expect(reasons(choice)).toEqual({ cloud: 'spend-cap' });
	});

	it('say the cap in numbers a person can act on, and refuse a run only the cloud could take', () => {
		const choice = choose([cloud({}, 15)], { spendCapCents: 50, spentCents: 40 });
		expect(choice).toMatchObject({ ok: false });
		expect(choice.skipped).toEqual([
			{
				profileId: 'cloud',
				reason: 'spend-cap',
				message:
					'Not sent to CLOUD: spend cap: 40 of 50 cents committed, a run here is 15. Raise the cap, or reset what is counted, on the Pools page.'
			}
		]);
	});

	it('are never sent a run without a price per run, even under no cap', () => {
		const choice = choose([member('home', { queueLength: 6 }), cloud({}, null)]);
		expect(choice).toMatchObject({ ok: true, profileId: 'home' });
		expect(choice.skipped).toEqual([
			{ profileId: 'cloud', reason: 'no-price', message: 'CLOUD costs money and has no price per run: set one in the pool’s form.' }
		]);
	});

	it('are held to the cap when pinned too', () => {
		const choice = choose([member('home'), cloud({}, 15)], { pin: 'cloud', spendCapCents: 20, spentCents: 15 });
		expect(choice).toMatchObject({ ok: false, message: expect.stringContaining('spend cap: 15 of 20 cents committed') });
	});
});

describe('a pinned run', () => {
	it('goes to its member even when another would finish first, and past the threshold', () => {
		const choice = choose([member('a'), member('cloud', { queueLength: 1 }, { paid: true, pricePerRunCents: 4 })], { pin: 'cloud' });
		expect(choice).toMatchObject({ ok: true, profileId: 'cloud' });
		expect(reasons(choice)).toEqual({ a: 'not-pinned' });
	});

	it('goes nowhere when its member cannot run it, saying why', () => {
		const choice = choose([member('a', { definitions: defs([]) }), member('b')], { pin: 'a' });
		expect(choice).toMatchObject({ ok: false, message: 'A lacks the model file sd_xl_base_1.0.safetensors.' });
	});
});

describe('the typical duration', () => {
	it('is the middle of the newest ten, ignoring what is not a duration', () => {
		expect(typicalDuration([3, 1, 2], 9)).toBe(2);
		expect(typicalDuration([4, 1, 0, Number.NaN, 3, 2], 9)).toBe(2.5);
		expect(typicalDuration([], 9)).toBe(9);
		expect(typicalDuration([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100, 100, 100], 9)).toBe(1);
	});
});
