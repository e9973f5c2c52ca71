// SharedWorker entry: one engine per browser (per build id, from the worker's name), one comlink
// endpoint per connecting tab. A newer build's worker retires this one (worker/retirement.ts).
import { expose } from 'comlink';
import { lazyEndpoint, startEngine } from './engine-host.ts';
import { BUILD_CHANNEL, buildOfWorkerName, watchForNewerBuild } from './retirement.ts';

declare const self: SharedWorkerGlobalScope;

const engine = startEngine();
const endpoint = lazyEndpoint(engine, navigator.locks);

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (port) expose(endpoint, port);
});

watchForNewerBuild(buildOfWorkerName(self.name), new BroadcastChannel(BUILD_CHANNEL), () => {
  console.info('A newer build of Lantern started; this worker retires.');
  void engine.then((running) => running.retire());
  // A moment for the tabs to hear 'outdated' before the worker (and its ports) go.
  setTimeout(() => self.close(), 1_000);
});
