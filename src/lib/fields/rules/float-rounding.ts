/**
 * How ComfyUI's editor rounds a FLOAT widget (frontend `useFloatWidget`, default settings: rounding on,
 * precision automatic): an explicit `round` number is the resolution a value snaps to; when `round` is
 * absent or false, the resolution is 10^-precision, the precision read off `step` (0.5 when absent),
 * and a step of 1 or more does not round at all. A typed value is snapped, never refused.
 */

const DEFAULT_FLOAT_STEP = 0.5;

/** The resolution a FLOAT snaps to, or undefined when it keeps any value. */
export function floatResolution(step: number | undefined, round: unknown): number | undefined {
	if (typeof round === 'number' && Number.isFinite(round) && round > 0) return round;
	const s = step !== undefined && step > 0 ? step : DEFAULT_FLOAT_STEP;
	const precision = Math.max(0, -Math.floor(Math.log10(s)));
	return precision > 0 ? 10 ** -precision : undefined;
}

/** `value` snapped to `resolution` and kept within the bounds; printed without float noise (0.1 + 0.2 is 0.3). */
export function roundFloat(value: number, resolution: number | undefined, min?: number, max?: number): number {
	let v = value;
	if (resolution !== undefined) {
		const decimals = Math.max(0, -Math.floor(Math.log10(resolution)) + 1);
		v = Number((Math.round(v / resolution) * resolution).toFixed(Math.min(20, decimals)));
	}
	if (min !== undefined && v < min) v = min;
	if (max !== undefined && v > max) v = max;
	return v;
}
