/** What the real-server tier talks to, from the environment; null when a server is not named. */
export const COMFYUI_URL = process.env['RUNBOARD_COMFYUI_URL']?.replace(/\/$/, '') || null;
export const PROXY_URL = process.env['RUNBOARD_PROXY_URL']?.replace(/\/$/, '') || null;
/** The ComfyUI behind the proxy (where an interrupt works); defaults to RUNBOARD_COMFYUI_URL. */
export const PROXY_COMFYUI_URL = process.env['RUNBOARD_PROXY_COMFYUI_URL']?.replace(/\/$/, '') || COMFYUI_URL;

/** A model-free chain that really runs on a CPU-only ComfyUI: EmptyImage, `hops` lanczos scales between 1024 and 6144 px, SaveImage. */
export function chainWorkflow(hops: number): Record<string, { class_type: string; inputs: Record<string, unknown> }> {
	const workflow: Record<string, { class_type: string; inputs: Record<string, unknown> }> = {
		'1': { class_type: 'EmptyImage', inputs: { width: 1024, height: 1024, batch_size: 1, color: Math.floor(Math.random() * 0xffffff) } }
	};
	for (let i = 2; i <= hops + 1; i++) {
		const size = i % 2 === 0 ? 6144 : 1024;
		workflow[String(i)] = {
			class_type: 'ImageScale',
			inputs: { image: [String(i - 1), 0], upscale_method: 'lanczos', width: size, height: size, crop: 'disabled' }
		};
	}
	workflow[String(hops + 2)] = { class_type: 'SaveImage', inputs: { images: [String(hops + 1), 0], filename_prefix: 'runboard-real' } };
	return workflow;
}

/** Eight frames made into an mp4 by ComfyUI's own CreateVideo and SaveVideo (PyAV): the file it lists under `images`. */
export function videoWorkflow(): Record<string, { class_type: string; inputs: Record<string, unknown> }> {
	return {
		'1': { class_type: 'EmptyImage', inputs: { width: 64, height: 48, batch_size: 8, color: Math.floor(Math.random() * 0xffffff) } },
		'2': { class_type: 'CreateVideo', inputs: { images: ['1', 0], fps: 8 } },
		'3': { class_type: 'SaveVideo', inputs: { video: ['2', 0], filename_prefix: 'runboard-real-video', format: 'auto', codec: 'auto' } }
	};
}

export interface SseFrame {
	event: string;
	data: Record<string, unknown>;
	at: number;
}

/** Reads a v2 event stream to its end, keeping each frame and comment as the wire had it. */
export async function readStream(url: string, timeoutMs: number): Promise<{ frames: SseFrame[]; comments: number; raw: string }> {
	const res = await fetch(url, { headers: { Accept: 'text/event-stream' }, signal: AbortSignal.timeout(timeoutMs) });
	const frames: SseFrame[] = [];
	let comments = 0;
	let raw = '';
	let buffer = '';
	const decoder = new TextDecoder();
	for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
		const text = decoder.decode(chunk, { stream: true });
		raw += text;
		buffer += text;
		let cut: number;
		while ((cut = buffer.indexOf('\n\n')) >= 0) {
			const block = buffer.slice(0, cut);
			buffer = buffer.slice(cut + 2);
			if (block.startsWith(':')) comments++;
			const event = /^event: (.*)$/m.exec(block)?.[1];
			const data = /^data: (.*)$/m.exec(block)?.[1];
			if (event && data) frames.push({ event, data: JSON.parse(data) as Record<string, unknown>, at: Date.now() });
		}
	}
	return { frames, comments, raw };
}
