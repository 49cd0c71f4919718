/** Names every plain object seems to have: untrusted keys spelled like these must be read as own data only. */
export const PROTO_NAMES = [
	'constructor',
	'toString',
	'hasOwnProperty',
	'__proto__',
	'valueOf',
	'isPrototypeOf',
	'toLocaleString'
] as const;
