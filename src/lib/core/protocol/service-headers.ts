/**
 * The response headers every service's error reading depends on (`core/rules/http-response.ts`),
 * lower-cased as fetch's `Headers` reads them. The router's whole list (`models/protocol/router-api.ts`)
 * takes these two from here.
 */
export const SERVICE_HEADERS = {
	requestId: 'x-service-request-id',
	errorType: 'x-service-error-type'
} as const;
