/** The clock, sleep and randomness the model feature runs on: real ones in the worker, fakes in tests. */
export interface ModelDeps {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}
