// Appended to the generated sw.js: a tap on a "run finished" notification opens that run, in an
// open Runboard window when there is one.
self.addEventListener('notificationclick', (event) => {
	event.notification.close();
	const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
	event.waitUntil(
		self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
			const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
			if (open) return open.navigate(url).then((w) => (w ?? open).focus());
			return self.clients.openWindow(url);
		})
	);
});
