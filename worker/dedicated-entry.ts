// Fallback entry where SharedWorker is missing: this module runs as a dedicated Worker in every tab;
// fallback-host.ts elects the one that owns the socket and forwards the others' calls to it. A newer
// build's worker retires this one (worker/retirement.ts): its lock then goes to no one of this build.
import { expose } from 'comlink';
import { openLanternDatabase } from '../src/store/database.ts';
import { startEngine } from './engine-host.ts';
import { FallbackHost } from './fallback-host.ts';
import { BUILD_CHANNEL, buildOfWorkerName, watchForNewerBuild } from './retirement.ts';

// One store per worker: its tab's reads and, once this worker owns the lock, the engine share it.
let store: ReturnType<typeof openLanternDatabase> | null = null;
const openStore = () => {
  store ??= openLanternDatabase();
  return store;
};

// The worker's name carries the build id: workers of one build share one owner.
const host = new FallbackHost({
  locks: navigator.locks,
  lockName: `lantern-network:${self.name}`,
  channel: new BroadcastChannel(`lantern-owner:${self.name}`),
  startEngine: () => startEngine(openStore()),
  openStore,
  log: (message, error) => console.warn(message, error ?? ''),
});

expose(host.endpoint);

watchForNewerBuild(buildOfWorkerName(self.name), new BroadcastChannel(BUILD_CHANNEL), () => {
  console.info('A newer build of Lantern started; this worker retires.');
  host.retire();
});
