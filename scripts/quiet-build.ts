/**
 * `npm start`'s build: runs `npm run build` and prints one line instead of Vite's chunk tables and
 * SvelteKit's advice to run `npm run preview` (which serves the app without the emulator, so it is
 * wrong here). The figures belong to `npm run bench`; the whole output is printed when the build fails.
 */
import { spawn } from 'node:child_process';

const started = performance.now();
process.stdout.write('Building the app… ');

const child = spawn('npm', ['run', '--silent', 'build'], { env: { ...process.env, FORCE_COLOR: '0' } });
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.on('close', (code) => {
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	if (code === 0) {
		console.log(`done in ${seconds} s.`);
		return;
	}
	console.log(`failed after ${seconds} s. The build said:\n`);
	console.log(output.trimEnd());
	process.exit(code ?? 1);
});
