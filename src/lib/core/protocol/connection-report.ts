/** The result of "Test connection": per service, each check and what it found. */
import type { AppError } from './errors';

export interface ProbeCheck {
	name: 'object_info' | 'websocket' | 'catalog' | 'jobs-v2';
	ok: boolean;
	/** True when the check was not attempted (the reason is in `summary`). */
	skipped?: boolean;
	summary: string;
	detail?: string;
	error?: AppError;
	ms: number;
}

export interface ConnectionReport {
	profileId: string;
	at: number;
	workflow: ProbeCheck[];
	/** null when the profile has no router. */
	router: ProbeCheck[] | null;
}

export const CHECK_LABELS: Record<ProbeCheck['name'], string> = {
	object_info: 'Node list',
	websocket: 'Live updates',
	catalog: 'Model catalog',
	'jobs-v2': 'Jobs API (v2)'
};
