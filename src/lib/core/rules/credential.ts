/**
 * The one place an API key becomes a request credential. Each surface names its scheme: the v1
 * service, a local ComfyUI and the model router take `X-API-Key`, the v2 jobs API a Bearer token,
 * and the profile's socket (a browser cannot set headers on a WebSocket) a `token` query parameter.
 */

/** Schemes sent as a header: what the guarded fetch and upload accept. */
export type HeaderScheme = 'x-api-key' | 'bearer';
export type CredentialScheme = HeaderScheme | 'socket-token';

/** A key and how it is sent; null when there is no key to send. */
export type Credential<S extends CredentialScheme = HeaderScheme> = { scheme: S; key: string } | null;

/** Where a credential travels on the wire. */
export type CredentialPlacement = { in: 'header'; name: string; value: string } | { in: 'query'; name: string; value: string };

/** The credential for a scheme; none for a missing or blank key (a blank key would be refused anyway, and tells nothing). */
export function credentialFor<S extends CredentialScheme>(key: string | undefined, scheme: S): Credential<S> {
	return key ? { scheme, key } : null;
}

/** The header or query parameter a credential becomes. */
export function credentialPlacement(credential: NonNullable<Credential<CredentialScheme>>): CredentialPlacement {
	switch (credential.scheme) {
		case 'x-api-key':
			return { in: 'header', name: 'X-API-Key', value: credential.key };
		case 'bearer':
			return { in: 'header', name: 'Authorization', value: `Bearer ${credential.key}` };
		case 'socket-token':
			return { in: 'query', name: 'token', value: credential.key };
	}
}
