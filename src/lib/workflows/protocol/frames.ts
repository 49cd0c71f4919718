/**
 * Binary WebSocket frames of the workflow service (spec: Events, "Binary frames").
 * All integers are big-endian u32. The emulator encodes with `encodeFrame`, the app decodes with
 * `decodeFrame`: one module, pinned by a round-trip test.
 */

export const FrameType = {
	PreviewImage: 1,
	Text: 3,
	PreviewImageWithMetadata: 4
} as const;

export const ImageType = { Jpeg: 1, Png: 2 } as const;
export type ImageMime = 'image/jpeg' | 'image/png';

export interface PreviewMetadata {
	node_id: string;
	display_node_id: string;
	real_node_id: string;
	prompt_id: string;
	parent_node_id: string | null;
	/** ComfyUI also sends `image_type` as a MIME type string in the metadata. */
	image_type?: string;
}

export type Frame =
	| { kind: 'preview'; mime: ImageMime; image: Uint8Array }
	| { kind: 'text'; nodeId: string; text: string }
	| { kind: 'preview-with-metadata'; metadata: PreviewMetadata; mime: ImageMime; image: Uint8Array };

export type FrameError =
	| { kind: 'truncated'; message: string; needed: number; got: number }
	| { kind: 'unknown-type'; message: string; type: number }
	| { kind: 'bad-image-type'; message: string; imageType: number }
	| { kind: 'bad-metadata'; message: string };

export type DecodeResult = { ok: true; frame: Frame } | { ok: false; error: FrameError };

const HEADER = 4;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function u32(view: DataView, offset: number): number {
	return view.getUint32(offset, false);
}

function truncated(needed: number, got: number): DecodeResult {
	return {
		ok: false,
		error: { kind: 'truncated', message: `binary frame is ${got} bytes, needs at least ${needed}`, needed, got }
	};
}

function mimeOfImageType(imageType: number): ImageMime | undefined {
	if (imageType === ImageType.Jpeg) return 'image/jpeg';
	if (imageType === ImageType.Png) return 'image/png';
	return undefined;
}

/** Sniffs JPEG/PNG magic bytes: type-4 frames do not carry an image type of their own. */
export function sniffImageMime(bytes: Uint8Array): ImageMime | undefined {
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
	if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
		return 'image/png';
	}
	return undefined;
}

function parseMetadata(text: string): PreviewMetadata | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as Record<string, unknown>;
	const str = (k: string) => (Object.hasOwn(v, k) && typeof v[k] === 'string' ? (v[k] as string) : undefined);
	const nodeId = str('node_id');
	const promptId = str('prompt_id');
	if (nodeId === undefined || promptId === undefined) return undefined;
	const parent = Object.hasOwn(v, 'parent_node_id') ? v['parent_node_id'] : undefined;
	return {
		node_id: nodeId,
		display_node_id: str('display_node_id') ?? nodeId,
		real_node_id: str('real_node_id') ?? nodeId,
		prompt_id: promptId,
		parent_node_id: typeof parent === 'string' ? parent : null,
		...(str('image_type') !== undefined ? { image_type: str('image_type') } : {})
	};
}

/**
 * Decodes one binary frame. The returned image is a view into `bytes` (no copy); copy it if the
 * buffer will be reused or transferred elsewhere.
 */
export function decodeFrame(bytes: Uint8Array): DecodeResult {
	if (bytes.length < HEADER) return truncated(HEADER, bytes.length);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const type = u32(view, 0);
	switch (type) {
		case FrameType.PreviewImage: {
			if (bytes.length < 8) return truncated(8, bytes.length);
			const imageType = u32(view, 4);
			const mime = mimeOfImageType(imageType);
			if (!mime) {
				return { ok: false, error: { kind: 'bad-image-type', message: `unknown preview image type ${imageType}`, imageType } };
			}
			return { ok: true, frame: { kind: 'preview', mime, image: bytes.subarray(8) } };
		}
		case FrameType.Text: {
			if (bytes.length < 8) return truncated(8, bytes.length);
			const len = u32(view, 4);
			if (bytes.length < 8 + len) return truncated(8 + len, bytes.length);
			try {
				const nodeId = utf8.decode(bytes.subarray(8, 8 + len));
				const text = utf8.decode(bytes.subarray(8 + len));
				return { ok: true, frame: { kind: 'text', nodeId, text } };
			} catch {
				return { ok: false, error: { kind: 'bad-metadata', message: 'text frame is not valid UTF-8' } };
			}
		}
		case FrameType.PreviewImageWithMetadata: {
			if (bytes.length < 8) return truncated(8, bytes.length);
			const len = u32(view, 4);
			if (bytes.length < 8 + len) return truncated(8 + len, bytes.length);
			let json: string;
			try {
				json = utf8.decode(bytes.subarray(8, 8 + len));
			} catch {
				return { ok: false, error: { kind: 'bad-metadata', message: 'preview metadata is not valid UTF-8' } };
			}
			const metadata = parseMetadata(json);
			if (!metadata) {
				return { ok: false, error: { kind: 'bad-metadata', message: 'preview metadata is not a JSON object with node_id and prompt_id' } };
			}
			const image = bytes.subarray(8 + len);
			const declared = metadata.image_type;
			const mime: ImageMime | undefined = declared === 'image/png' || declared === 'image/jpeg' ? declared : sniffImageMime(image);
			if (!mime) {
				return { ok: false, error: { kind: 'bad-image-type', message: 'preview image is neither JPEG nor PNG', imageType: 0 } };
			}
			return { ok: true, frame: { kind: 'preview-with-metadata', metadata, mime, image } };
		}
		default:
			return { ok: false, error: { kind: 'unknown-type', message: `unknown binary frame type ${type}`, type } };
	}
}

function header(type: number, second: number, restLength: number): Uint8Array {
	const out = new Uint8Array(8 + restLength);
	const view = new DataView(out.buffer);
	view.setUint32(0, type, false);
	view.setUint32(4, second, false);
	return out;
}

export function encodeFrame(frame: Frame): Uint8Array {
	switch (frame.kind) {
		case 'preview': {
			const out = header(FrameType.PreviewImage, frame.mime === 'image/png' ? ImageType.Png : ImageType.Jpeg, frame.image.length);
			out.set(frame.image, 8);
			return out;
		}
		case 'text': {
			const node = utf8Encoder.encode(frame.nodeId);
			const text = utf8Encoder.encode(frame.text);
			const out = header(FrameType.Text, node.length, node.length + text.length);
			out.set(node, 8);
			out.set(text, 8 + node.length);
			return out;
		}
		case 'preview-with-metadata': {
			const meta = utf8Encoder.encode(JSON.stringify({ ...frame.metadata, image_type: frame.mime }));
			const out = header(FrameType.PreviewImageWithMetadata, meta.length, meta.length + frame.image.length);
			out.set(meta, 8);
			out.set(frame.image, 8 + meta.length);
			return out;
		}
	}
}
