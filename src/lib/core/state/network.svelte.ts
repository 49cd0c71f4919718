/** Whether the browser believes it is online; actions that need the network say so when it is not. */
export class NetworkStatus {
	online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
	private started = false;

	start(): void {
		if (this.started) return;
		this.started = true;
		window.addEventListener('online', () => (this.online = true));
		window.addEventListener('offline', () => (this.online = false));
	}
}

export const network = new NetworkStatus();

export const OFFLINE_REASON = 'You are offline: this needs the network. What was seen before stays readable here.';
