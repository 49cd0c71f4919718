/** The demo profiles seeded from the runtime config, and the settings that remember one was deleted. */
import type { DemoConfig, RuntimeConfig } from '../protocol/runtime-config';
import { DEMO_DELETED_KEY, DEMO_V2_DELETED_KEY } from '../protocol/storage-keys';
import type { KeyValueStore } from './kv-store';
import type { ProfileRepo } from './profile-repo';

/**
 * `demo` is the v1 demo; `demo-v2` a Cloud profile on the same emulator, whose service answers the
 * v2 probe, so its workflow runs go through the managed v2 jobs API (`surfaces/index.ts`).
 */
const SEEDED_DEMOS = [
	{ id: 'demo', section: 'demo', preset: 'demo', deleted: DEMO_DELETED_KEY },
	{ id: 'demo-v2', section: 'demoV2', preset: 'cloud', deleted: DEMO_V2_DELETED_KEY }
] as const;

/** Creates or updates the demo profiles from the runtime config (the emulator's ports may change). */
export async function seedDemoProfiles(config: RuntimeConfig, repo: ProfileRepo, kv: KeyValueStore): Promise<void> {
	for (const [order, seeded] of SEEDED_DEMOS.entries()) {
		const demo = config[seeded.section];
		if (demo) await seedDemo(seeded, demo, order, repo, kv);
	}
}

async function seedDemo(
	seeded: (typeof SEEDED_DEMOS)[number],
	demo: DemoConfig,
	order: number,
	repo: ProfileRepo,
	kv: KeyValueStore
): Promise<void> {
	if (await kv.get<boolean>(seeded.deleted)) return;
	const existing = await repo.get(seeded.id);
	// Created in the config's order, so the v1 demo stays first and active.
	const now = Date.now() + order;
	if (!existing) {
		await repo.put({
			id: seeded.id,
			name: demo.name,
			preset: seeded.preset,
			workflowUrl: demo.workflowUrl,
			routerUrl: demo.routerUrl,
			createdAt: now,
			updatedAt: now
		});
		await repo.setKey(seeded.id, demo.apiKey);
		if (!(await repo.activeId())) await repo.setActive(seeded.id);
	} else if (existing.workflowUrl !== demo.workflowUrl || existing.routerUrl !== demo.routerUrl) {
		await repo.put({ ...existing, workflowUrl: demo.workflowUrl, routerUrl: demo.routerUrl, updatedAt: now });
		await repo.setKey(seeded.id, demo.apiKey);
	}
}

/** A deleted demo profile stays deleted: the next config read does not seed it again. */
export async function rememberDemoDeleted(profileId: string, kv: KeyValueStore): Promise<void> {
	const seeded = SEEDED_DEMOS.find((demo) => demo.id === profileId);
	if (seeded) await kv.set(seeded.deleted, true);
}
