/** A pool's refusal as a profile's run would be refused, so a form or a sweep shows it the same way. Pure. */
import { appError } from '../../core/protocol/errors';
import type { SubmitRunError } from '../../workflows';
import type { PoolRunError } from '../protocol/pool';
import { noMemberWords } from './place-words';

export function asSubmitError(error: PoolRunError): SubmitRunError {
	if (error.kind === 'submit') return error.error;
	const message = error.kind === 'no-member' ? noMemberWords(error.message, error.skipped) : error.message;
	return { kind: 'error', error: appError('unavailable', message), runId: null };
}
