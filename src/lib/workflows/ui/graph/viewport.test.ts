import { describe, expect, it } from 'vitest';
import { bounds, centreOn, fitView, inView, neighbour, readableView, zoomAt, type Direction } from './viewport';

const box = (id: string, x: number, y: number) => ({ id, x, y, width: 100, height: 50 });
//      a   b
//  c   d   e
const boxes = [box('a', 200, 0), box('b', 400, 0), box('c', 0, 200), box('d', 200, 200), box('e', 400, 200)];

describe('the view a graph opens with', () => {
	const all = bounds(boxes);
	it('is the whole graph when its words are readable there', () => {
		expect(readableView(all, undefined, 1000, 600, 1)).toEqual(fitView(all, 1000, 600));
	});

	it('is zoomed to a readable size on the running box when the whole graph would be too small to read', () => {
		const running = boxes[4]!; // e, bottom right
		const view = readableView(all, running, 300, 400, 1);
		expect(view.k).toBe(1);
		expect(inView(view, running, 300, 400)).toBe(true);
	});

	it("starts at the graph's first corner without a running box, never past its edges", () => {
		const view = readableView(all, undefined, 300, 400, 1);
		expect(view.k).toBe(1);
		expect(view.tx).toBe(24); // the left edge, one margin in
		expect(view.ty).toBeCloseTo((400 - 250) / 2); // centred: the graph is shorter than the screen
		// Taller than the screen: from its top, not its top edge at the screen's middle.
		expect(readableView(all, undefined, 300, 200, 1).ty).toBe(24);
	});
});

describe('the graph viewport', () => {
	it('fits the whole graph, centred, without zooming in past 1', () => {
		const all = bounds(boxes);
		expect(all).toEqual({ x: 0, y: 0, width: 500, height: 250 });
		const view = fitView(all, 1000, 600);
		expect(view.k).toBe(1);
		expect(view.tx).toBe(250);
		const small = fitView(all, 274, 600);
		expect(small.k).toBeCloseTo(0.452);
		expect(inView(small, all, 274, 600)).toBe(true);
	});

	it('zooms around the pointer: the point under it stays put', () => {
		const view = { tx: 10, ty: 20, k: 1 };
		const zoomed = zoomAt(view, 110, 70, 2);
		expect(zoomed.k).toBe(2);
		// Workflow point (100, 50) was at (110, 70) and still is.
		expect(100 * zoomed.k + zoomed.tx).toBe(110);
		expect(50 * zoomed.k + zoomed.ty).toBe(70);
		expect(zoomAt(view, 0, 0, 1000).k).toBe(4);
	});

	it('centres the running node', () => {
		const view = centreOn({ tx: 0, ty: 0, k: 2 }, box('x', 100, 100), 800, 600);
		expect(150 * 2 + view.tx).toBe(400);
		expect(125 * 2 + view.ty).toBe(300);
	});

	it.each<[string, Direction, string | undefined]>([
		['d', 'left', 'c'],
		['d', 'right', 'e'],
		['d', 'up', 'a'],
		['a', 'down', 'd'],
		['a', 'right', 'b'],
		['c', 'left', undefined]
	])('moves from %s %s to %s', (from, direction, to) => {
		expect(
			neighbour(
				boxes,
				boxes.find((b) => b.id === from)!,
				direction
			)?.id
		).toBe(to);
	});
});
