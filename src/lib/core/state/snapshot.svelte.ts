/**
 * `$state.snapshot`, except that plain objects are copied key by key with defineProperty: Svelte's
 * own copy assigns, so a key named `__proto__` (a node id from a workflow file) would become the
 * copy's prototype and vanish from what the worker stores.
 */
export function snapshot<T>(value: T): T {
	if (typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.map(snapshot) as T;
	const proto = Object.getPrototypeOf(value) as unknown;
	if (proto !== Object.prototype && proto !== null) return $state.snapshot(value) as T;
	const out = {};
	for (const key of Object.keys(value)) {
		const copy = snapshot((value as Record<string, unknown>)[key]);
		Object.defineProperty(out, key, { value: copy, writable: true, enumerable: true, configurable: true });
	}
	return out as T;
}
