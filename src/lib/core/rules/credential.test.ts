import { describe, expect, it } from 'vitest';
import { credentialFor, credentialPlacement, type CredentialPlacement, type CredentialScheme } from './credential';

describe('credentialFor', () => {
	const table: Array<[CredentialScheme, string | undefined, CredentialPlacement | null]> = [
		['x-api-key', 'k-1', { in: 'header', name: 'X-API-Key', value: 'k-1' }],
		['bearer', 'k-1', { in: 'header', name: 'Authorization', value: 'Bearer k-1' }],
		['socket-token', 'k&1', { in: 'query', name: 'token', value: 'k&1' }],
		['x-api-key', undefined, null],
		['bearer', '', null],
		['socket-token', undefined, null]
	];
	it.each(table)('%s with key %j is sent as %j', (scheme, key, placement) => {
		const credential = credentialFor(key, scheme);
		expect(credential && credentialPlacement(credential)).toEqual(placement);
	});
});
