/** `npm run convert`: see scripts/convert/main.ts. */
import { readFile } from 'node:fs/promises';
import { runConvert } from './convert/main';

const code = await runConvert(process.argv.slice(2), {
	readFile: async (path) => new Uint8Array(await readFile(path)),
	fetch: (url, init) => fetch(url, init),
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text)
});
process.exitCode = code;
