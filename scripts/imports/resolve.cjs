// How dependency-cruiser resolves `$lib` (as SvelteKit does), given to it as a webpack `resolve`.
const { join } = require('node:path');

module.exports = { resolve: { alias: { $lib: join(__dirname, '../../src/lib') }, extensions: ['.ts', '.js', '.svelte', '.json'] } };
