/**
 * An answer's text split into prose and fenced code blocks (```lang … ```), so code is shown
 * monospaced and the rest as prose with its line breaks; the text is never interpreted as HTML.
 */
export type TextBlock = { kind: 'prose'; text: string } | { kind: 'code'; text: string; language: string };

export function textBlocks(text: string): TextBlock[] {
	const blocks: TextBlock[] = [];
	const fence = /^```([^\n`]*)\n([\s\S]*?)(?:\n```[ \t]*(?:\n|$)|$)/gm;
	let at = 0;
	for (let m = fence.exec(text); m; m = fence.exec(text)) {
		if (m.index > at) blocks.push({ kind: 'prose', text: text.slice(at, m.index) });
		blocks.push({ kind: 'code', text: m[2] ?? '', language: (m[1] ?? '').trim() });
		at = m.index + m[0].length;
		if (m[0].length === 0) fence.lastIndex++;
	}
	if (at < text.length) blocks.push({ kind: 'prose', text: text.slice(at) });
	return blocks
		.map((b) => (b.kind === 'prose' ? { kind: 'prose' as const, text: b.text.replace(/^\n+|\n+$/g, '') } : b))
		.filter((b) => b.kind === 'code' || b.text !== '');
}
