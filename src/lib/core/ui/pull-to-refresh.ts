/**
 * Pull down at the top of the page to refresh, as phone apps do. A Svelte action: the page gives
 * what to do and how to show the gesture's state; a plain button offers the same to keyboards.
 */
export type PullState = 'idle' | 'pulling' | 'armed' | 'refreshing';

export interface PullOptions {
	onRefresh: () => Promise<void>;
	onState: (state: PullState, distance: number) => void;
}

const ARM_AT = 72;

export function pullToRefresh(node: HTMLElement, options: PullOptions) {
	let opts = options;
	let startY: number | null = null;
	let distance = 0;
	let busy = false;

	const start = (e: TouchEvent) => {
		if (busy || window.scrollY > 0 || e.touches.length !== 1) return;
		startY = e.touches[0]!.clientY;
	};
	const move = (e: TouchEvent) => {
		if (startY === null) return;
		distance = Math.max(0, e.touches[0]!.clientY - startY);
		opts.onState(distance >= ARM_AT ? 'armed' : distance > 8 ? 'pulling' : 'idle', distance);
	};
	const end = async () => {
		if (startY === null) return;
		startY = null;
		if (distance < ARM_AT) return opts.onState('idle', 0);
		busy = true;
		opts.onState('refreshing', 0);
		try {
			await opts.onRefresh();
		} finally {
			busy = false;
			distance = 0;
			opts.onState('idle', 0);
		}
	};

	node.addEventListener('touchstart', start, { passive: true });
	node.addEventListener('touchmove', move, { passive: true });
	node.addEventListener('touchend', end);
	node.addEventListener('touchcancel', end);
	return {
		update(next: PullOptions) {
			opts = next;
		},
		destroy() {
			node.removeEventListener('touchstart', start);
			node.removeEventListener('touchmove', move);
			node.removeEventListener('touchend', end);
			node.removeEventListener('touchcancel', end);
		}
	};
}
