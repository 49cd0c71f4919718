/// <reference lib="webworker" />
/** The worker's entry: the browser's storage, channel and leader election, and the assembled API exposed through comlink. */
import * as Comlink from 'comlink';
import { IdbStore } from '../core/worker/kv-store';
import { CHANNEL_NAME, electLeader } from '../core/worker/leader';
import { QuotaWatchingStore } from '../core/worker/quota-watching-store';
import { QUOTA_MESSAGE } from '../core/worker/quota';
import { composeWorker } from './compose';

const kv = new QuotaWatchingStore(new IdbStore(), () => worker.core.context.emit({ type: 'storage-full', message: QUOTA_MESSAGE }));
const worker = composeWorker({
	kv,
	appOrigin: self.location.origin,
	channel: new BroadcastChannel(CHANNEL_NAME),
	electLeader
});

// A run record, its key and the outbox come before cached output bytes: a refused record removes the oldest outputs first.
kv.makeRoom = (bytes) => worker.api.freeOutputSpace({ bytes }).then((freed) => freed.removed);

Comlink.expose(worker.api);
