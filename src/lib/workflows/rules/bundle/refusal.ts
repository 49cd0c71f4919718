/** Why a bundle or a link was not opened: a kind for code, one line for a person. */
export type RefusalKind = 'not-a-bundle' | 'too-large' | 'path' | 'corrupt' | 'depth' | 'format' | 'hash' | 'version' | 'cancelled';

export interface Refusal {
	kind: RefusalKind;
	message: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; error: Refusal };

export const refuse = (kind: RefusalKind, message: string): { ok: false; error: Refusal } => ({
	ok: false,
	error: { kind, message: message.replace(/\s+/g, ' ').trim() }
});

export const accept = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
