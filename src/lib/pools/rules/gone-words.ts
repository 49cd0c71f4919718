/** What saying a member is gone did, in words. Pure. */
import type { GoneReport } from '../protocol/pool';

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

export function goneWords(name: string, report: GoneReport): string {
	const parts = [`${name} is switched off in this pool.`];
	if (report.answered) {
		parts.push(`It answered when its queue was read once more.`);
		if (report.moved > 0)
			parts.push(`${runs(report.moved)} waiting there ${report.moved === 1 ? 'was' : 'were'} taken off it and went to the other members.`);
		if (report.left === 1) parts.push('The run it is running (or that ended there) stays there, followed as usual.');
		if (report.left > 1) parts.push(`The ${report.left} runs it is running (or that ended there) stay there, followed as usual.`);
		if (report.moved + report.left === 0) parts.push('None of this pool’s runs were there.');
		return parts.join(' ');
	}
	if (report.moved > 0) parts.push(`${runs(report.moved)} waiting there went to the other members.`);
	if (report.stranded > 0) parts.push(`${runs(report.stranded)} waiting there could go nowhere else: each says why.`);
	if (report.stopped === 1) parts.push('The run it was running ended there and was not sent again: run it again if you want it.');
	if (report.stopped > 1)
		parts.push(`The ${report.stopped} runs it was running ended there and were not sent again: run them again if you want them.`);
	if (report.moved + report.stranded + report.stopped === 0) parts.push('None of this pool’s runs were there.');
	return parts.join(' ');
}
