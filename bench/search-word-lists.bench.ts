/**
 * Would a word list per chunk of a hundred texts let a search skip the chunks that cannot match
 * (decision 0061)? On the same 100,000 synthetic runs and queries as `search.bench.ts`: for each
 * query, the chunks its words keep, the lead term's pass over every chunk's text (the app's scan)
 * against the word lists' pass plus that scan over the kept chunks only (best of three each), and
 * the heap the word lists take.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchDoc, SEARCH_FIELDS } from '../src/lib/timeline/rules/search-doc';
import { parseQuery, type SearchTerm } from '../src/lib/timeline/rules/search-query';
import { syntheticRunStream } from './support/synthetic-runs';
import { searchQueries } from './support/search-queries';
import { percentile } from './support/stats';
import { report } from './support/report';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
const docs = [...syntheticRunStream(100_000)].map(searchDoc);
const texts: string[] = [];
for (let i = 0; i < docs.length; i += 100) texts.push(docs.slice(i, i + 100).join('\u001e'));
const h0 = heap();
const lists: string[] = texts.map((t) => {
	const set = new Set<string>();
	for (const line of t.split(/[\n\u001e]/)) {
		if (line === '') continue;
		const code = line[0]!;
		for (const w of line.slice(1).split(' ')) set.add(code + w);
	}
	return '\n' + [...set].join('\n');
});
const listBytes = heap() - h0;
const passes = (list: string, term: SearchTerm) =>
	term.text.split(' ').every((part) => {
		if (term.field === null) return list.includes(part);
		const code = SEARCH_FIELDS[term.field];
		for (let at = list.indexOf(part); at >= 0; at = list.indexOf(part, at + 1))
			if (list[list.lastIndexOf('\n', at) + 1] === code) return true;
		return false;
	});
const qs = searchQueries();
const scanTimes: number[] = [];
const skipTimes: number[] = [];
const rows: string[] = [];
for (const q of qs) {
	const terms = parseQuery(q);
	const lead = [...terms].sort((a, b) => b.text.length - a.text.length)[0]!;
	const bestOf = (f: () => number) => {
		let best = Infinity;
		let r = 0;
		for (let i = 0; i < 3; i++) {
			const t = performance.now();
			r = f();
			best = Math.min(best, performance.now() - t);
		}
		return [r, best] as const;
	};
	// The scan: the lead term over every chunk's text (one indexOf pass each), as the app does.
	const scanAll = (keep: (c: number) => boolean) => {
		let n = 0;
		for (let c = 0; c < texts.length; c++) {
			if (!keep(c)) continue;
			const t = texts[c]!;
			for (let at = t.indexOf(lead.text); at >= 0; at = t.indexOf(lead.text, at + lead.text.length)) n++;
		}
		return n;
	};
	const [, scanMs] = bestOf(() => scanAll(() => true));
	let kept = 0;
	const [, skipMs] = bestOf(() => {
		const keep = lists.map((l) => terms.every((t) => passes(l, t)));
		kept = keep.filter(Boolean).length;
		return scanAll((c) => keep[c]!);
	});
	scanTimes.push(scanMs);
	skipTimes.push(skipMs);
	rows.push(
		`${q.padEnd(28)} chunks kept ${String(kept).padStart(4)} of ${texts.length}  scan ${scanMs.toFixed(1).padStart(6)} ms  word lists + scan of kept ${skipMs.toFixed(1).padStart(6)} ms`
	);
}
console.log(rows.join('\n'));
console.log(
	`word lists: ${(lists.reduce((s, l) => s + l.length, 0) / 1e6).toFixed(1)} M chars, heap ${(listBytes / 2 ** 20).toFixed(1)} MiB; p95 scan ${percentile(scanTimes, 95).toFixed(1)} ms, with word lists ${percentile(skipTimes, 95).toFixed(1)} ms; p50 ${percentile(scanTimes, 50).toFixed(1)} / ${percentile(skipTimes, 50).toFixed(1)} ms`
);
report({
	name: 'search p95 with a word list per chunk to skip chunks (baseline: the scan of every chunk)',
	figure: percentile(skipTimes, 95),
	unit: 'ms',
	baseline: percentile(scanTimes, 95),
	target: '< 100 ms',
	met: percentile(skipTimes, 95) < 100
});
report({ name: 'heap of the word lists per chunk (on top of the texts)', figure: listBytes / 2 ** 20, unit: 'MiB' });
