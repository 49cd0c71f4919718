import type { TimelineEntry } from './run-kernel';

/** A finished workflow run's timeline entry, with the fields a test cares about given. */
export const timelineEntry = (over: Partial<TimelineEntry> = {}): TimelineEntry => ({
	id: 'x',
	kind: 'workflow',
	profileId: 'p1',
	title: 'Text to image',
	subject: null,
	status: 'succeeded',
	createdAt: 1,
	durationMs: null,
	seed: null,
	credits: null,
	thumbnail: null,
	modelThumb: null,
	elsewhere: false,
	href: '/runs/x',
	promptId: null,
	...over
});
