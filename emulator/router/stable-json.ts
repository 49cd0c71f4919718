type Input = Record<string, unknown>;

/** JSON with object keys sorted, so equal values give equal text (request fingerprints, seeds). */
export function stableStringify(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value as Input)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Input)[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
