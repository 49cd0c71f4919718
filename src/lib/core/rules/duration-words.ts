/** A duration in words, for a row, a card or a wait: "45 s", "3 min 5 s", "2 h 10 min" (its own module: the Runs list needs only this). */
export function formatDuration(ms: number): string {
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ${s % 60} s`;
	return `${Math.floor(m / 60)} h ${m % 60} min`;
}
