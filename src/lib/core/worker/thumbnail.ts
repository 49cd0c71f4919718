/**
 * A small picture of an image, made in the worker (createImageBitmap and an OffscreenCanvas, never
 * the page's main thread): longest side at most 256 px, as WebP. A workflow's card and a sweep's
 * cells keep these, so they still show something once the full outputs are gone.
 */
import { appError, fail, ok, type Result } from '../protocol/errors';
import { THUMBNAIL_SIDE, thumbnailSize } from '../rules/thumbnail-size';

/** The thumbnail, or the image itself when it already fits; an error when it cannot be decoded. */
export async function makeThumbnail(image: Blob, side = THUMBNAIL_SIDE): Promise<Result<Blob>> {
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(image);
	} catch (error) {
		return fail(appError('bad-response', `This output could not be read as a picture (${String(error)}).`));
	}
	try {
		const size = thumbnailSize(bitmap.width, bitmap.height, side);
		if (size.fits) return ok(image);
		const canvas = new OffscreenCanvas(size.width, size.height);
		const g = canvas.getContext('2d');
		if (!g) return fail(appError('unknown', 'This browser cannot draw pictures in the background.'));
		g.drawImage(bitmap, 0, 0, size.width, size.height);
		return ok(await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 }));
	} catch (error) {
		return fail(appError('unknown', `The thumbnail could not be drawn (${String(error)}).`));
	} finally {
		bitmap.close();
	}
}
