/**
 * Where things sit in the BLAKE3 kernel's memory: one batch of input, then room for its chunks'
 * chaining values. Shared by the kernel's generator and the hasher that drives it.
 */
export const KERNEL_LAYOUT = {
	/** Input bytes hashed per call: 256 chunks, the subtree the streaming hasher folds at once. */
	batchBytes: 1024 * 1024,
	cvOffset: 1024 * 1024,
	/** 1 MiB of input plus 64 KiB for chaining values (256 of them need 8 KiB). */
	pages: 17
} as const;
