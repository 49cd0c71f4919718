/** A finished two-cell seed sweep (seeds 1 and 2, runs r0 and r1), for tests of what is shown of one. */
import { SWEEP_SCHEMA_VERSION, type SweepRecord } from '../../protocol/sweep';

export function finishedSweep(shownSource?: string): SweepRecord {
	return {
		schemaVersion: SWEEP_SCHEMA_VERSION,
		id: 's1',
		profileId: 'p',
		workflowId: 'w',
		title: 'T',
		base: {},
		seeds: {},
		axes: [{ fieldId: '3.seed', path: ['3', 'seed'], label: 'seed', seed: true, values: [1, 2], pairedWithPrevious: false }],
		cells: [0, 1].map((index) => ({
			index,
			place: [index],
			values: [index + 1],
			status: 'succeeded',
			runId: `r${index}`,
			promptId: `p${index}`,
			attempts: 1
		})),
		status: 'finished',
		createdAt: 0,
		window: 2,
		...(shownSource ? { shownSource } : {})
	};
}
