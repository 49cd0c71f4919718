/** Which view of a run the run page shows (the details list or the graph), remembered on this device. */
const KEY = 'runboard:run-view';

export type RunViewTab = 'list' | 'graph';

function stored(): RunViewTab {
	try {
		return globalThis.localStorage?.getItem(KEY) === 'graph' ? 'graph' : 'list';
	} catch (e) {
		// Storage refused (a private window's policy): the list, as on a first visit.
		console.warn('run view preference unreadable', e);
		return 'list';
	}
}

class RunView {
	tab = $state<RunViewTab>(stored());

	choose(tab: RunViewTab): void {
		this.tab = tab;
		try {
			localStorage.setItem(KEY, tab);
		} catch (e) {
			console.warn('run view preference not saved', e);
		}
	}
}

export const runView = new RunView();
