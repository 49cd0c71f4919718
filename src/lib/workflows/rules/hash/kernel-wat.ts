/**
 * Writes the BLAKE3 SIMD kernel as WebAssembly text. The kernel hashes four inputs at once, one per
 * 32-bit lane of a v128 (the "hash many" layout of BLAKE3's own SIMD backends): four whole chunks,
 * or four parent nodes. Rounds are unrolled here, with the message schedule resolved while writing,
 * so the kernel never permutes words at run time. `scripts/generate-blake3-kernel.ts` compiles this
 * text to the module the app embeds.
 */
import { KERNEL_LAYOUT } from './kernel-layout';
import { BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, G_LANES, IV, MESSAGE_SCHEDULE, PARENT } from './blake3-compress';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

/** `i8x16.shuffle` of two vectors, given the 32-bit lanes to take (0-3 from the first, 4-7 from the second). */
function shuffle32(lanes: readonly number[]): string {
	return `i8x16.shuffle ${lanes.flatMap((l) => range(4).map((b) => 4 * l + b)).join(' ')}`;
}

/** Rotations by whole bytes are one shuffle; the others are two shifts and an or. */
function rotateRight(local: string, by: number): string[] {
	if (by === 16 || by === 8) {
		const bytes = range(4).flatMap((w) => range(4).map((b) => 4 * w + ((b + by / 8) % 4)));
		return [`local.tee ${local}`, `local.get ${local}`, `i8x16.shuffle ${bytes.join(' ')}`];
	}
	return [`local.tee ${local}`, `i32.const ${by}`, 'i32x4.shr_u', `local.get ${local}`, `i32.const ${32 - by}`, 'i32x4.shl', 'v128.or'];
}

function g(a: number, b: number, c: number, d: number, mx: number, my: number): string[] {
	const [va, vb, vc, vd] = [`$v${a}`, `$v${b}`, `$v${c}`, `$v${d}`];
	const half = (m: number, r1: number, r2: number) => [
		`local.get ${va}`,
		`local.get ${vb}`,
		'i32x4.add',
		`local.get $m${m}`,
		'i32x4.add',
		`local.tee ${va}`,
		`local.get ${vd}`,
		'v128.xor',
		...rotateRight('$tmp', r1),
		`local.tee ${vd}`,
		`local.get ${vc}`,
		'i32x4.add',
		`local.tee ${vc}`,
		`local.get ${vb}`,
		'v128.xor',
		...rotateRight('$tmp', r2),
		`local.set ${vb}`
	];
	return [...half(mx, 16, 12), ...half(my, 8, 7)];
}

function rounds(): string[] {
	return MESSAGE_SCHEDULE.flatMap((order) => G_LANES.flatMap(([a, b, c, d], i) => g(a, b, c, d, order[2 * i]!, order[2 * i + 1]!)));
}

/**
 * Loads 16 message words for four lanes whose blocks start `stride` bytes apart from `$ptr`,
 * transposed so that `$m<k>` holds word k of every lane.
 */
function loadMessage(stride: number): string[] {
	const out: string[] = [];
	for (let group = 0; group < 4; group++) {
		for (let lane = 0; lane < 4; lane++)
			out.push('local.get $ptr', `v128.load offset=${lane * stride + 16 * group}`, `local.set $r${lane}`);
		out.push(...transpose('$r', `$m${4 * group}`, `$m${4 * group + 1}`, `$m${4 * group + 2}`, `$m${4 * group + 3}`));
	}
	return out;
}

/** Lanes of the transpose's two steps: pair up rows 0/1 and 2/3, then the pairs' halves. */
const [PAIR_LOW, PAIR_HIGH, HALF_LOW, HALF_HIGH] = [
	[0, 4, 1, 5],
	[2, 6, 3, 7],
	[0, 1, 4, 5],
	[2, 3, 6, 7]
] as const;

/** A 4x4 transpose of 32-bit words from `${rows}0..3` into the four named locals. */
function transpose(rows: string, to0: string, to1: string, to2: string, to3: string): string[] {
	const step = (a: string, b: string, lanes: readonly number[], into: string) => [
		`local.get ${a}`,
		`local.get ${b}`,
		shuffle32(lanes),
		`local.set ${into}`
	];
	return [
		...step(`${rows}0`, `${rows}1`, PAIR_LOW, '$t0'),
		...step(`${rows}0`, `${rows}1`, PAIR_HIGH, '$t1'),
		...step(`${rows}2`, `${rows}3`, PAIR_LOW, '$t2'),
		...step(`${rows}2`, `${rows}3`, PAIR_HIGH, '$t3'),
		...step('$t0', '$t2', HALF_LOW, to0),
		...step('$t0', '$t2', HALF_HIGH, to1),
		...step('$t1', '$t3', HALF_LOW, to2),
		...step('$t1', '$t3', HALF_HIGH, to3)
	];
}

const splat = (value: number) => `v128.const i32x4 ${hex(value)} ${hex(value)} ${hex(value)} ${hex(value)}`;

/** State rows 8..15 from the IV and the per-lane counter, length and flags vectors. */
function initState(cv: (i: number) => string[], counterLo: string[], counterHi: string[], blockLen: string[], flags: string[]): string[] {
	return [
		...range(8).flatMap((i) => [...cv(i), `local.set $v${i}`]),
		...range(4).flatMap((i) => [splat(IV[i]!), `local.set $v${8 + i}`]),
		...counterLo,
		'local.set $v12',
		...counterHi,
		'local.set $v13',
		...blockLen,
		'local.set $v14',
		...flags,
		'local.set $v15'
	];
}

const V128_LOCALS = [
	...range(16).map((i) => `$v${i}`),
	...range(16).map((i) => `$m${i}`),
	...range(8).map((i) => `$h${i}`),
	...range(4).map((i) => `$r${i}`),
	...range(4).map((i) => `$t${i}`),
	'$tmp',
	'$lo',
	'$hi'
];

function locals(): string {
	return V128_LOCALS.map((name) => `(local ${name} v128)`).join(' ');
}

function finishCompression(): string[] {
	return range(8).flatMap((i) => [`local.get $v${i}`, `local.get $v${i + 8}`, 'v128.xor', `local.set $h${i}`]);
}

/** Stores `$h0..$h7` as four lanes' chaining values at `$out`, 32 bytes apart. */
function storeLanes(): string[] {
	const out: string[] = [];
	for (const half of [0, 1]) {
		out.push(
			...range(4).flatMap((i) => [`local.get $h${4 * half + i}`, `local.set $r${i}`]),
			...transpose('$r', '$r0', '$r1', '$r2', '$r3'),
			...range(4).flatMap((lane) => ['local.get $out', `local.get $r${lane}`, `v128.store offset=${32 * lane + 16 * half}`])
		);
	}
	return out;
}

const addTo = (local: string, amount: number) => [`local.get ${local}`, `i32.const ${amount}`, 'i32.add', `local.set ${local}`];

/** Runs `group` for each four lanes while `$n` > 0, moving `$in` by `inStride` and `$out` by four chaining values. */
function forEachFour(inStride: number, group: string[]): string[] {
	return [
		'(block $done',
		'(loop $groups',
		...['local.get $n', 'i32.const 0', 'i32.le_s', 'br_if $done'],
		...group,
		...addTo('$in', inStride),
		...addTo('$out', 128),
		...addTo('$n', -4),
		'br $groups',
		')',
		')'
	];
}

function hashChunks(): string[] {
	const blockLoop = [
		'(loop $blocks',
		...initState(
			(i) => [`local.get $h${i}`],
			['local.get $lo'],
			['local.get $hi'],
			[splat(BLOCK_LEN)],
			// CHUNK_START on block 0, CHUNK_END on block 15.
			[
				...['local.get $block', 'i32.eqz', `i32.const ${CHUNK_START}`, 'i32.mul'],
				...['local.get $block', `i32.const ${CHUNK_LEN / BLOCK_LEN - 1}`, 'i32.eq', `i32.const ${CHUNK_END}`, 'i32.mul'],
				'i32.or',
				'i32x4.splat'
			]
		),
		...loadMessage(CHUNK_LEN),
		...rounds(),
		...finishCompression(),
		...addTo('$ptr', BLOCK_LEN),
		...addTo('$block', 1),
		...['local.get $block', `i32.const ${CHUNK_LEN / BLOCK_LEN}`, 'i32.lt_u', 'br_if $blocks'],
		')'
	];
	const group = [
		// Lane j hashes chunk counter + j; a lane whose low word wrapped carries into the high word.
		...['local.get $counterLo', 'i32x4.splat', 'v128.const i32x4 0 1 2 3', 'i32x4.add', 'local.tee $lo'],
		...['local.get $counterLo', 'i32x4.splat', 'i32x4.lt_u', 'local.set $carry'],
		...['local.get $counterHi', 'i32x4.splat', 'local.get $carry', 'i32x4.sub', 'local.set $hi'],
		...range(8).flatMap((i) => [splat(IV[i]!), `local.set $h${i}`]),
		...['local.get $in', 'local.set $ptr', 'i32.const 0', 'local.set $block'],
		...blockLoop,
		...storeLanes(),
		...['local.get $counterLo', 'i32.const 4', 'i32.add', 'local.tee $counterLo'],
		...['i32.const 4', 'i32.lt_u', 'local.get $counterHi', 'i32.add', 'local.set $counterHi']
	];
	return [
		'(func (export "hashChunks") (param $in i32) (param $n i32) (param $counterLo i32) (param $counterHi i32) (param $out i32)',
		locals(),
		'(local $ptr i32) (local $block i32) (local $carry v128)',
		...forEachFour(4 * CHUNK_LEN, group),
		')'
	];
}

function hashParents(): string[] {
	const group = [
		...['local.get $in', 'local.set $ptr'],
		...initState((i) => [splat(IV[i]!)], [splat(0)], [splat(0)], [splat(BLOCK_LEN)], [splat(PARENT)]),
		// Every lane's message is read before any lane's result is written, so `$out` may equal `$in`.
		...loadMessage(BLOCK_LEN),
		...rounds(),
		...finishCompression(),
		...storeLanes()
	];
	return [
		'(func (export "hashParents") (param $in i32) (param $n i32) (param $out i32)',
		locals(),
		'(local $ptr i32)',
		...forEachFour(4 * BLOCK_LEN, group),
		')'
	];
}

/** The whole module as text: memory, `hashChunks` and `hashParents`. */
export function blake3KernelWat(): string {
	const lines = [
		';; Generated by scripts/generate-blake3-kernel.ts from src/lib/workflows/rules/hash/kernel-wat.ts. Do not edit.',
		'(module',
		`(memory (export "memory") ${KERNEL_LAYOUT.pages} ${KERNEL_LAYOUT.pages})`,
		...hashChunks(),
		...hashParents(),
		')'
	];
	return lines.join('\n') + '\n';
}
