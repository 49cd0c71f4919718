/** Refusals of a bundle or a link: one line for a person (the types are the protocol's). */
import type { Read, Refusal, RefusalKind } from '../../protocol/bundle';
export type { Read, Refusal, RefusalKind };

export const refuse = (kind: RefusalKind, message: string): { ok: false; error: Refusal } => ({
	ok: false,
	error: { kind, message: message.replace(/\s+/g, ' ').trim() }
});

export const accept = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
