/** Stars, one record per starred run (`star:<run id>`); see `core/protocol/star.ts`. */
import type { Star } from '../../core/protocol/star';
import { STAR_KEY } from '../../core/protocol/storage-keys';
import { withStar } from '../../core/rules/stars';
import type { KeyValueStore } from '../../core/worker/kv-store';

export class StarRepo {
	constructor(
		private readonly kv: KeyValueStore,
		private readonly now: () => number = () => Date.now()
	) {}

	async all(): Promise<Star[]> {
		return (await this.kv.entries<Star>(STAR_KEY)).map(([, star]) => star);
	}

	/** Stars or unstars the run (no `output`) or one of its outputs; gives what is starred of it now. */
	async set(input: { runId: string; output?: number; on: boolean }): Promise<Star | null> {
		const key = STAR_KEY + input.runId;
		const next = withStar(await this.kv.get<Star>(key), input.runId, input, this.now());
		if (next) await this.kv.set(key, next, { required: true });
		else await this.kv.delete(key);
		return next;
	}
}
