/// <reference lib="webworker" />
/** The worker entry: builds the one API object and exposes it to the page through comlink. */
import * as Comlink from 'comlink';
import { IdbStore } from './kv-store';
import { CHANNEL_NAME, electLeader } from './leader';
import { RunboardWorker } from './runboard-worker';

const api = new RunboardWorker({
	kv: new IdbStore(),
	appOrigin: self.location.origin,
	channel: new BroadcastChannel(CHANNEL_NAME),
	electLeader
});

Comlink.expose(api);
