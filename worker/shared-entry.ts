// SharedWorker entry: one engine per browser (per build id, from the worker's name), one comlink
// endpoint per connecting tab.
import { expose } from 'comlink';
import { lazyEndpoint, startEngine } from './engine-host.ts';

declare const self: SharedWorkerGlobalScope;

const endpoint = lazyEndpoint(startEngine(), navigator.locks);

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (port) expose(endpoint, port);
});
