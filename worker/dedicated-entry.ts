// Fallback entry where SharedWorker is missing: this module runs as a dedicated Worker in every tab;
// fallback-host.ts elects the one that owns the socket and forwards the others' calls to it.
import { expose } from 'comlink';
import { startEngine } from './engine-host.ts';
import { FallbackHost } from './fallback-host.ts';

// The worker's name carries the build id: workers of one build share one owner.
const host = new FallbackHost({
  locks: navigator.locks,
  lockName: `lantern-network:${self.name}`,
  channel: new BroadcastChannel(`lantern-owner:${self.name}`),
  startEngine,
  log: (message, error) => console.warn(message, error ?? ''),
});

expose(host.endpoint);
