/**
 * Resident memory of this process's Chromium renderers, read from /proc (Linux only). Dedicated
 * workers run inside their page's renderer process, so its RSS covers page and worker alike.
 */
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name is in parentheses and may hold spaces: fields follow the last ')'.
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return undefined;
	}
}

/** Processes started (directly or not) by this Node process: only our own browser, never another's. */
function descendants(root: number): number[] {
	const parent = new Map<number, number>();
	for (const name of readdirSync('/proc')) {
		const pid = Number(name);
		if (!Number.isInteger(pid)) continue;
		const ppid = parentOf(pid);
		if (ppid !== undefined) parent.set(pid, ppid);
	}
	const isOurs = (pid: number): boolean => {
		for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++)
			if (p === root) return true;
		return false;
	};
	return [...parent.keys()].filter((pid) => pid !== root && isOurs(pid));
}

function rssBytes(pid: number): number {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0; // the process ended between listing and reading
	}
}

export function rendererPids(): number[] {
	return descendants(process.pid).filter((pid) => {
		try {
			return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
		} catch {
			return false;
		}
	});
}

/** Samples the summed RSS of `pids` every `everyMs` until stopped; gives the peak. */
export function sampleRss(pids: number[], everyMs = 25): { stop(): number; now(): number } {
	const now = () => pids.reduce((sum, pid) => sum + rssBytes(pid), 0);
	let peak = now();
	const timer = setInterval(() => (peak = Math.max(peak, now())), everyMs);
	return {
		now,
		stop: () => {
			clearInterval(timer);
			return Math.max(peak, now());
		}
	};
}
