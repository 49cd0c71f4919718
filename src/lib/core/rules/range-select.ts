/**
 * Picking items in a list: a click toggles one; with `range` (Shift held) every item from the one
 * picked last (the anchor) to the one clicked takes the clicked item's new state.
 */
export function toggleInList(
	selected: readonly string[],
	order: readonly string[],
	anchor: string | null,
	id: string,
	range: boolean
): { selected: string[]; anchor: string } {
	const on = !selected.includes(id);
	const from = range && anchor !== null ? order.indexOf(anchor) : -1;
	const to = order.indexOf(id);
	const span = from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
	const chosen = new Set(selected);
	for (const item of span) {
		if (on) chosen.add(item);
		else chosen.delete(item);
	}
	// In the list's order, so that what is sent follows what is shown.
	return { selected: [...order.filter((i) => chosen.has(i)), ...[...chosen].filter((i) => !order.includes(i))], anchor: id };
}
