/**
 * What people look for, for the search benches: prompt words (common, rare, several), a seed, a
 * LoRA, a checkpoint, a negative word, a sampler, a day, part of a word. Drawn from the same
 * synthetic runs the benches store, so every bench times the same queries.
 */
import type { AnyRun } from '../../src/lib/core/protocol/run-kernel';
import { syntheticRunStream } from './synthetic-runs';

export function searchQueries(): string[] {
	const sample = [...syntheticRunStream(2000)];
	const seedOf = (run: AnyRun) => Object.values(run.seeds ?? {})[0]!;
	const promptWords = (run: AnyRun) =>
		(run.kind === 'workflow' ? String(run.prompt['6']!.inputs['text']) : String((run.body as { prompt: string }).prompt)).split(' ');
	const out: string[] = [];
	for (let i = 0; i < 6; i++) {
		const run = sample[i * 97]!;
		const words = promptWords(run);
		out.push(words[0]!, `${words[1]} ${words[2]}`, `${words[0]} ${words[3]} ${words[4]}`, `seed:${seedOf(run)}`, String(seedOf(run)));
		out.push(words[0]!.slice(0, 3));
	}
	out.push(
		'zeppelin',
		'lighthouse fog',
		'lora:style_lora_7',
		'model:sdxl',
		'negative:ka',
		'sampler:dpmpp_2m_sde',
		'2026-11-2',
		'failed',
		'nothing-like-this'
	);
	return out;
}
