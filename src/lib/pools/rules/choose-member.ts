/**
 * Which member of a pool gets a run, or why none can. Pure and cheap (called once per run, sweeps
 * included): a member must be on, answering, and able to run the work (its node types, and its
 * model files, with a name matched to the same file in another folder as the import's
 * closest-file choice does); then the shortest expected finish, divided by the member's weight.
 * Paid members come last: one takes a run only when every free member's expected finish passes
 * the user's threshold, and never when their price per run would pass the pool's spend cap (what
 * the pool committed so far plus that price: `spend.ts`). A pin sends the run there or nowhere.
 */
import { closestModelFile } from '../../core/rules/closest-model';
import { formatDuration } from '../../core/rules/duration-words';
import type { MemberChoice, ModelRename, PoolMember, SkippedMember } from '../protocol/pool';
import { spendCheck } from './spend';
import { listKey, type MemberDefinitions, type WorkNeeds } from './work-needs';

export interface MemberState {
	member: PoolMember;
	/** The profile's name, for the reasons. */
	name: string;
	/** The member's definitions, or null with `unreachable` saying why they could not be read. */
	definitions: MemberDefinitions | null;
	unreachable?: string;
	/** Jobs running and waiting on the member's own queue now. */
	queueLength: number;
	/** How many jobs the member runs at once; at least 1. */
	concurrency: number;
	/** Durations of its recent finished runs of similar work, newest first (its other work when none). */
	recentDurationsMs: readonly number[];
}

export interface ChoiceInput {
	work: WorkNeeds;
	members: readonly MemberState[];
	cloudThresholdMs: number;
	spendCapCents: number | null;
	spentCents: number;
	/** The member the user pinned this run to, or null. */
	pin: string | null;
	/** A run's duration where a member has none on record yet. */
	unknownDurationMs: number;
}

/** Middle of the newest ten: one run that hung or was cached does not move it. */
export function typicalDuration<T extends number | null>(durations: readonly number[], fallback: T): number | T {
	const sample: number[] = [];
	for (const d of durations) {
		if (Number.isFinite(d) && d > 0) sample.push(d);
		if (sample.length === 10) break;
	}
	if (sample.length === 0) return fallback;
	sample.sort((a, b) => a - b);
	const mid = sample.length >> 1;
	return sample.length % 2 ? sample[mid]! : (sample[mid - 1]! + sample[mid]!) / 2;
}

/** When a run sent now would likely be done there: the rounds of the queue ahead, plus its own. */
export function expectedFinishMs(state: MemberState, unknownDurationMs: number): number {
	const rounds = Math.floor(Math.max(0, state.queueLength) / Math.max(1, state.concurrency)) + 1;
	return rounds * typicalDuration(state.recentDurationsMs, unknownDurationMs);
}

/** Why this member cannot run the work at all, or the model names it knows them by. */
export function fitOf(work: WorkNeeds, state: MemberState): { ok: true; renames: ModelRename[] } | { ok: false; skip: SkippedMember } {
	const profileId = state.member.profileId;
	const definitions = state.definitions;
	if (!definitions)
		return {
			ok: false,
			skip: {
				profileId,
				reason: 'unreachable',
				message: `${state.name} is not answering: ${state.unreachable ?? 'its node definitions could not be read'}.`
			}
		};
	for (const type of work.nodeTypes)
		if (!definitions.nodeTypes.has(type))
			return { ok: false, skip: { profileId, reason: 'missing-node', message: `${state.name} lacks the node type ${type}.` } };
	const renames: ModelRename[] = [];
	for (const model of work.models) {
		const offered = definitions.lists.get(listKey(model.classType, model.input));
		if (offered === undefined || offered.includes(model.name)) continue; // not a list on this server: nothing to check
		const wanted = baseName(model.name);
		const sameFile = offered.find((name) => baseName(name) === wanted);
		if (sameFile !== undefined) {
			renames.push({ nodeId: model.nodeId, input: model.input, from: model.name, to: sameFile });
			continue;
		}
		const closest = closestOf(model.name, offered);
		const hint = closest === undefined ? '' : ` (the closest it has is ${closest}, a different file)`;
		return { ok: false, skip: { profileId, reason: 'missing-model', message: `${state.name} lacks the model file ${model.name}${hint}.` } };
	}
	return { ok: true, renames };
}

const baseName = (name: string): string => name.split(/[\\/]/).pop()!.toLowerCase();

/**
 * The closest-file choice weighs every name of the list (the costly part of a choice: about 30
 * letter-pair comparisons for a shelf of checkpoints), so its answer is kept per list: a member's
 * lists stay the same objects until its definitions change, and a sweep asks the same each cell.
 */
const closestByList = new WeakMap<readonly string[], Map<string, string | undefined>>();

function closestOf(wanted: string, offered: readonly string[]): string | undefined {
	let known = closestByList.get(offered);
	if (!known) closestByList.set(offered, (known = new Map()));
	if (!known.has(wanted)) known.set(wanted, closestModelFile(wanted, offered));
	return known.get(wanted);
}

interface Candidate {
	state: MemberState;
	finish: number;
	score: number;
	renames: ModelRename[];
}

export function chooseMember(input: ChoiceInput): MemberChoice {
	const skipped: SkippedMember[] = [];
	const free: Candidate[] = [];
	const paid: Candidate[] = [];
	for (const state of input.members) {
		const { member, name } = state;
		const profileId = member.profileId;
		if (input.pin !== null && profileId !== input.pin) {
			skipped.push({ profileId, reason: 'not-pinned', message: `The run is pinned to another member than ${name}.` });
			continue;
		}
		if (!member.enabled) {
			skipped.push({ profileId, reason: 'off', message: `${name} is switched off in this pool.` });
			continue;
		}
		const fit = fitOf(input.work, state);
		if (!fit.ok) {
			skipped.push(fit.skip);
			continue;
		}
		const finish = expectedFinishMs(state, input.unknownDurationMs);
		const candidate = { state, finish, score: finish / (member.weight > 0 ? member.weight : 1), renames: fit.renames };
		(member.paid ? paid : free).push(candidate);
	}
	const bestFree = best(free);
	const allowedPaid: Candidate[] = [];
	for (const candidate of paid) {
		const { profileId } = candidate.state.member;
		const name = candidate.state.name;
		const spend = spendCheck(input, candidate.state.member, name);
		if (spend.kind === 'no-price' || spend.kind === 'over-cap') {
			skipped.push({ profileId, reason: spend.kind === 'no-price' ? 'no-price' : 'spend-cap', message: spend.message });
		} else if (input.pin === null && bestFree !== undefined && bestFree.finish <= input.cloudThresholdMs) {
			skipped.push({
				profileId,
				reason: 'paid-under-threshold',
				message: `${name} costs money and ${bestFree.state.name} is expected to finish in ${formatDuration(bestFree.finish)}, within the ${formatDuration(input.cloudThresholdMs)} threshold.`
			});
		} else allowedPaid.push(candidate);
	}
	const chosen = best([...free, ...allowedPaid]);
	if (chosen === undefined) {
		const message =
			input.pin !== null
				? (skipped.find((s) => s.profileId === input.pin)?.message ?? 'The member this run is pinned to is not in the pool.')
				: 'No member of this pool can run this workflow now.';
		return { ok: false, message, skipped };
	}
	for (const other of [...free, ...allowedPaid])
		if (other !== chosen)
			skipped.push({
				profileId: other.state.member.profileId,
				reason: 'slower',
				message: `${other.state.name} is expected to finish in ${formatDuration(other.finish)}; ${chosen.state.name} in ${formatDuration(chosen.finish)}.`
			});
	return { ok: true, profileId: chosen.state.member.profileId, expectedFinishMs: chosen.finish, renames: chosen.renames, skipped };
}

/** The lowest score; on a tie the free member, then the one listed first. */
function best(candidates: readonly Candidate[]): Candidate | undefined {
	let winner: Candidate | undefined;
	for (const c of candidates)
		if (winner === undefined || c.score < winner.score || (c.score === winner.score && winner.state.member.paid && !c.state.member.paid))
			winner = c;
	return winner;
}
