/**
 * Scripts the preview benchmark injects. Every time is `performance.timeOrigin + performance.now()`,
 * which a page and its workers share, so a worker's receive time and the page's paint compare.
 * Frames are told apart by their image's byte length (the emulator's bench stream makes each unique).
 */

export interface PaintRecord {
	size: number;
	setAt: number;
	paintedAt: number;
}

export interface PageProbe {
	longTasks: Array<{ at: number; ms: number }>;
	/** Long animation frames: what ran in them, to say where a long task came from. */
	longFrames: Array<{ at: number; ms: number; renderMs: number; scripts: string[] }>;
	painted: PaintRecord[];
	superseded: number;
}

/** Page init script: long tasks, and for each blob image shown, when it was set and painted (a frame after decode). */
export const PAGE_PROBE = `(() => {
	const now = () => performance.timeOrigin + performance.now();
	const probe = (window.__benchProbe = { longTasks: [], longFrames: [], painted: [], superseded: 0 });
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) probe.longTasks.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
	}).observe({ type: 'longtask', buffered: true });
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) {
			const scripts = e.scripts.map((s) => \`\${s.invoker || s.invokerType} \${s.sourceFunctionName || ''} \${Math.round(s.duration)} ms\`.trim());
			probe.longFrames.push({ at: performance.timeOrigin + e.startTime, ms: e.duration, renderMs: e.startTime + e.duration - e.renderStart, scripts });
		}
	}).observe({ type: 'long-animation-frame', buffered: true });
	const sizes = new Map();
	const create = URL.createObjectURL;
	URL.createObjectURL = (object) => {
		const url = create.call(URL, object);
		if (object instanceof Blob) sizes.set(url, object.size);
		return url;
	};
	const shown = new WeakMap();
	const seen = (img) => {
		const size = sizes.get(img.src);
		if (size === undefined || shown.get(img) === img.src) return;
		shown.set(img, img.src);
		const setAt = now();
		img.decode().then(
			() => requestAnimationFrame(() => probe.painted.push({ size, setAt, paintedAt: now() })),
			() => probe.superseded++
		);
	};
	new MutationObserver((records) => {
		for (const r of records) {
			if (r.type === 'attributes' && r.target instanceof HTMLImageElement) seen(r.target);
			for (const node of r.addedNodes) {
				if (node instanceof HTMLImageElement) seen(node);
				else if (node instanceof Element) node.querySelectorAll('img').forEach(seen);
			}
		}
	}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
})()`;

/**
 * Evaluated in the app's worker: sockets made from now on note when each type-4 frame arrives,
 * before the app's own handler runs, as [image bytes, time].
 */
export const WORKER_PROBE = `(() => {
	const Native = WebSocket;
	const frames = (globalThis.__benchFrames = []);
	globalThis.__benchSockets = 0;
	globalThis.WebSocket = class extends Native {
		constructor(...args) {
			super(...args);
			globalThis.__benchSockets++;
			this.addEventListener('message', (event) => {
				if (!(event.data instanceof ArrayBuffer) || event.data.byteLength < 8) return;
				const view = new DataView(event.data);
				if (view.getUint32(0) === 4) frames.push([event.data.byteLength - 8 - view.getUint32(4), performance.timeOrigin + performance.now()]);
			});
		}
	};
	return true;
})()`;

/** A bare page and worker doing the least the same job needs: socket, copy, transfer, blob URL, <img>. */
export const BARE_WORKER = `
self.onmessage = (start) => {
	const frames = [];
	const ws = new WebSocket(start.data.url);
	ws.binaryType = 'arraybuffer';
	ws.onopen = () => ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
	ws.onmessage = (event) => {
		if (typeof event.data === 'string') {
			if (JSON.parse(event.data).type === 'feature_flags') self.postMessage({ ready: true });
			return;
		}
		const view = new DataView(event.data);
		if (view.getUint32(0) !== 4) return;
		const metaLength = view.getUint32(4);
		const receivedAt = performance.timeOrigin + performance.now();
		const image = event.data.slice(8 + metaLength);
		self.postMessage({ size: image.byteLength, receivedAt, image }, [image]);
	};
};`;

export const BARE_PAGE = `<!doctype html><meta charset="utf-8"><title>bare preview pipeline</title>
<img id="preview" alt="preview" width="512" height="512">
<script>
window.__benchFrames = [];
const worker = new Worker('/bare-worker.js');
const img = document.getElementById('preview');
window.startBare = (url) => new Promise((ready) => {
	worker.onmessage = (event) => {
		if (event.data.ready) return ready(true);
		window.__benchFrames.push([event.data.size, event.data.receivedAt]);
		const old = img.src;
		img.src = URL.createObjectURL(new Blob([event.data.image], { type: 'image/jpeg' }));
		if (old) setTimeout(() => URL.revokeObjectURL(old), 1000);
	};
	worker.postMessage({ url });
});
</script>`;
