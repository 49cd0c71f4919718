/**
 * `npm run check`: SvelteKit's sync, then the five static checks (formatting among them) two at a
 * time. They are independent and mostly single-threaded, so on a 2-core machine running them in pairs takes about two thirds of the
 * time of one after another. Each step's output is printed whole when it ends, with its time; the
 * exit code is non-zero when any step failed.
 */
import { spawn } from 'node:child_process';

interface Step {
	name: string;
	command: string;
}

interface Outcome {
	step: Step;
	ok: boolean;
	seconds: number;
	output: string;
}

// svelte-check and the type checks read the tsconfig SvelteKit writes.
const FIRST: Step[] = [{ name: 'SvelteKit sync', command: 'svelte-kit sync' }];

// Longest first, so the two lanes end close together (on 2 cores: svelte-check 34 s, formatting
// 22 s, the Node types 19 s, the worker types 8 s, the import rules 6 s).
const PARALLEL: Step[] = [
	{ name: 'svelte-check', command: 'svelte-check --tsconfig ./tsconfig.json --fail-on-warnings' },
	{ name: 'formatting', command: 'prettier --check .' },
	{ name: 'types (Node side)', command: 'tsc -p tsconfig.node.json' },
	{ name: 'types (worker, no DOM)', command: 'tsc -p tsconfig.worker.json' },
	{ name: 'import rules', command: 'npm run --silent imports' }
];

const AT_ONCE = 2;

function run(step: Step): Promise<Outcome> {
	const started = performance.now();
	return new Promise((resolve) => {
		const child = spawn(step.command, { shell: true, env: { ...process.env, FORCE_COLOR: '1' } });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('close', (code) => resolve({ step, ok: code === 0, seconds: (performance.now() - started) / 1000, output }));
	});
}

function report(outcome: Outcome): void {
	const mark = outcome.ok ? 'ok' : 'FAILED';
	console.log(`\n── ${outcome.step.name} (${outcome.step.command}): ${mark} in ${outcome.seconds.toFixed(1)} s`);
	if (!outcome.ok || outcome.output.trim()) console.log(outcome.output.trimEnd());
}

async function runPool(steps: Step[], atOnce: number): Promise<Outcome[]> {
	const waiting = [...steps];
	const done: Outcome[] = [];
	const lane = async (): Promise<void> => {
		for (let step = waiting.shift(); step; step = waiting.shift()) {
			const outcome = await run(step);
			report(outcome);
			done.push(outcome);
		}
	};
	await Promise.all(Array.from({ length: atOnce }, lane));
	return done;
}

const outcomes: Outcome[] = [];
for (const step of FIRST) {
	const outcome = await run(step);
	report(outcome);
	outcomes.push(outcome);
	if (!outcome.ok) break;
}
if (outcomes.every((o) => o.ok)) outcomes.push(...(await runPool(PARALLEL, AT_ONCE)));

const failed = outcomes.filter((o) => !o.ok).map((o) => o.step.name);
console.log(failed.length ? `\ncheck: ${failed.join(', ')} failed` : '\ncheck: all passed');
process.exit(failed.length ? 1 : 0);
