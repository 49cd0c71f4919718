/** Writes records straight into the app's IndexedDB store, as its worker would have, for benches that need a history. */
import type { Page } from '@playwright/test';

export async function seedAppStore(page: Page, rows: Array<[string, unknown]>, batchSize = 2000): Promise<void> {
	for (let at = 0; at < rows.length; at += batchSize) {
		await page.evaluate(
			async (batch) => {
				const db = await new Promise<IDBDatabase>((resolve, reject) => {
					const open = indexedDB.open('runboard');
					open.onsuccess = () => resolve(open.result);
					open.onerror = () => reject(open.error);
				});
				await new Promise<void>((resolve, reject) => {
					const tx = db.transaction('kv', 'readwrite');
					for (const [key, value] of batch) tx.objectStore('kv').put(value, key);
					tx.oncomplete = () => resolve();
					tx.onerror = () => reject(tx.error);
				});
				db.close();
			},
			rows.slice(at, at + batchSize)
		);
	}
}
