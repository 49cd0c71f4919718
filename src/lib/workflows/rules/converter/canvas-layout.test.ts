import { describe, expect, it } from 'vitest';
import { canvasLayout, readingOrder } from './canvas-layout';

describe('reading order of the canvas', () => {
	// Two groups side by side; "Prompt" sits top right outside any group; node 7 is not on the canvas.
	const ui = {
		nodes: [
			{ id: 3, pos: [420, 120] },
			{ id: 4, pos: [20, 300] },
			{ id: 6, pos: [20, 140] },
			{ id: 8, pos: [900, 10] },
			{ id: 10, pos: [430, 400] }
		],
		groups: [
			{ title: 'Load', bounding: [0, 100, 380, 400] },
			{ title: 'Sample', bounding: [400, 100, 380, 400] }
		]
	};

	it('reads group by group (top, then left), and inside a group top to bottom, then left to right', () => {
		const layout = canvasLayout(ui);
		expect(readingOrder(layout, ['3', '4', '6', '7', '8', '10'])).toEqual(['8', '6', '4', '3', '10', '7']);
	});

	it('places a node inside a subgraph where its top-level node is', () => {
		const layout = canvasLayout(ui);
		expect(readingOrder(layout, ['10', '3:2', '6'])).toEqual(['6', '3:2', '10']);
	});
});
