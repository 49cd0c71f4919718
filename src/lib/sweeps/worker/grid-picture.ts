/**
 * The grid as one PNG, drawn in the worker on an OffscreenCanvas (the page's main thread is never
 * busy with it): axis labels, each cell's first image scaled into its square, pages stacked, and the
 * workflow (`prompt`) and the sweep (`runboard_sweep`) in its text chunks.
 */
import { appError, fail, ok, type Result } from '../../core/protocol/errors';
import { SWEEP_TEXT_KEY, type SweepCell, type SweepRecord } from '../protocol/sweep';
import { gridShape } from '../rules/sweep-grid';
import { pictureLayout } from '../rules/grid-picture';
import { withTextChunks } from '../rules/png-text';

export async function gridPicture(sweep: SweepRecord, imageOf: (cell: SweepCell) => Promise<Blob | null>): Promise<Result<Blob>> {
	const shape = gridShape(sweep);
	const [columns, rows, pages] = [shape.columns.length, shape.rows.length, shape.pages.length];
	const layout = pictureLayout(columns, rows * pages);
	const canvas = new OffscreenCanvas(layout.width, layout.height);
	const g = canvas.getContext('2d');
	if (!g) return fail(appError('unknown', 'This browser cannot draw pictures in the background.'));
	g.fillStyle = '#ffffff';
	g.fillRect(0, 0, layout.width, layout.height);
	g.fillStyle = '#111111';
	g.font = '13px sans-serif';
	g.textBaseline = 'middle';
	shape.columns.forEach((label, c) => g.fillText(label, layout.at(c, 0).x + 4, layout.headerHeight / 2, layout.cell - 8));
	for (let p = 0; p < pages; p++)
		for (let r = 0; r < rows; r++) {
			const label = [shape.pages[p], shape.rows[r]].filter(Boolean).join(' · ');
			g.fillText(label, 4, layout.at(0, p * rows + r).y + layout.cell / 2, layout.labelWidth - 8);
		}
	for (const cell of sweep.cells) {
		const image = await imageOf(cell);
		if (!image) continue;
		const bitmap = await createImageBitmap(image).catch(() => null);
		if (!bitmap) continue;
		const [column, row, page] = [cell.place[0] ?? 0, cell.place[1] ?? 0, cell.place[2] ?? 0];
		const { x, y } = layout.at(column, page * rows + row);
		const scale = Math.min(layout.cell / bitmap.width, layout.cell / bitmap.height);
		const [w, h] = [bitmap.width * scale, bitmap.height * scale];
		g.drawImage(bitmap, x + (layout.cell - w) / 2, y + (layout.cell - h) / 2, w, h);
		bitmap.close();
	}
	const png = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
	const { cells, ...plan } = sweep;
	const sweepText = JSON.stringify({ ...plan, cells: cells.map((c) => ({ index: c.index, values: c.values, runId: c.runId })) });
	// A model sweep has no workflow: its bodies travel in the sweep's own text, and no `prompt` poses as one.
	const texts: Record<string, string> = sweep.model
		? { [SWEEP_TEXT_KEY]: sweepText }
		: { prompt: JSON.stringify(sweep.base), [SWEEP_TEXT_KEY]: sweepText };
	return ok(new Blob([withTextChunks(png, texts) as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
}
