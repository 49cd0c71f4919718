/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, so one
 * benchmark's memory and timers never disturb another's. Each prints its own figures and their
 * ratio to a baseline measured in the same run, and one `BENCH {…}` line per figure
 * (`support/report.ts`); this collects those lines and ends with a summary table. Exit 0 whether or
 * not targets are met; non-zero only when a benchmark fails (crashes, hangs, or a check of its own
 * run fails). `npm run bench -- name` runs the matching ones.
 */
import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchLine, type BenchFigure } from './support/report';
import { summaryTable, type BenchOutcome } from './support/summary';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
	.filter((f) => f.endsWith('.bench.ts'))
	.filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
	.sort();

/** Runs one benchmark, passing its output through as it comes and keeping its BENCH lines. */
function runBench(file: string): Promise<BenchOutcome> {
	return new Promise((resolve) => {
		const figures: BenchFigure[] = [];
		const child = spawn(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: ['ignore', 'pipe', 'inherit'] });
		let pending = '';
		child.stdout.on('data', (chunk: Buffer) => {
			process.stdout.write(chunk);
			pending += chunk.toString('utf8');
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) {
				const figure = parseBenchLine(line);
				if (figure) figures.push(figure);
			}
		});
		child.on('close', (code) => {
			const figure = parseBenchLine(pending);
			if (figure) figures.push(figure);
			resolve({ file, exitCode: code, figures });
		});
	});
}

const outcomes: BenchOutcome[] = [];
for (const file of files) {
	console.log(`\n=== ${file} ===`);
	outcomes.push(await runBench(file));
}
if (files.length === 0) console.log('no benchmark matched');
else console.log(`\n=== summary ===\n${summaryTable(outcomes)}`);
process.exit(outcomes.every((o) => o.exitCode === 0) ? 0 : 1);
