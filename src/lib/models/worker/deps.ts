/** The clock, sleep and randomness the model feature runs on: real ones in the worker, fakes in tests. */
export interface ModelDeps {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
	/** The tabs' Web Locks (one driver per run); the browser's when absent, none where there are none (Node). */
	locks?: Pick<LockManager, 'request'>;
}
