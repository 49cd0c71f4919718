/**
 * Whether a run is still under way. Both kinds of run share these states; any other status (an end,
 * or one of a record version this build does not know) counts as ended.
 */
const UNDER_WAY: ReadonlySet<unknown> = new Set(['submitting', 'queued', 'running']);

export const isUnderWay = (status: unknown): boolean => UNDER_WAY.has(status);
