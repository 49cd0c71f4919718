/// <reference lib="webworker" />
/** The worker entry: builds the core and each feature, and exposes their one API through comlink. */
import * as Comlink from 'comlink';
import type { WorkerApi } from '../protocol/worker-api';
import { IdbStore } from './kv-store';
import { CHANNEL_NAME, electLeader } from './leader';
import { RunboardWorker } from './runboard-worker';
import { ModelService } from '../../models/worker/model-service';
import { WorkflowService } from '../../workflows/worker/workflow-service';
import { StorageService } from '../../storage/worker/storage-service';
import { HistoryService } from '../../history/worker/history-service';
import { TimelineService } from '../../timeline/worker/timeline-service';
import { QuotaWatchingStore } from './quota-watching-store';
import { QUOTA_MESSAGE } from './quota';

const kv = new QuotaWatchingStore(new IdbStore(), () => core.context.emit({ type: 'storage-full', message: QUOTA_MESSAGE }));
const core = new RunboardWorker({
	kv,
	appOrigin: self.location.origin,
	channel: new BroadcastChannel(CHANNEL_NAME),
	electLeader
});

const workflows = new WorkflowService(core.context);
const models = new ModelService(core.context);

const api: WorkerApi = {
	...core.api(),
	...workflows.api(),
	...new StorageService(core.context).api(),
	...new HistoryService(core.context).api(),
	...new TimelineService(core.context).api(),
	...models.api()
};

Comlink.expose(api);
