// Connects this tab to the worker: the SharedWorker where the browser has one, else a dedicated worker
// (worker/fallback-host.ts forwards its calls to the tab that owns the network). The tab holds a Web
// Lock for its whole life, whose release tells the worker the tab is gone, and one event hub fed by
// the single port the worker keeps for this tab; components listen there and unlisten on unmount.
import { type Remote, transfer, wrap } from 'comlink';
import { tabLockName, type WorkerEndpoint } from '../../worker/api.ts';
import { type WorkerEvent, WorkerEventHub } from '../../worker/events.ts';

interface WorkerConnection {
  worker: Remote<WorkerEndpoint>;
  /** The worker's events in this tab (connection status, upload progress, notices). */
  events: WorkerEventHub;
}

/** Connects to `injected` (tests: an engine in this process) or to a worker started here. */
export async function connectWorker(
  tabId: string,
  injected?: Remote<WorkerEndpoint>,
): Promise<WorkerConnection> {
  if (!injected) await holdTabLock(tabId);
  const worker = injected ?? startWorker();
  const events = new WorkerEventHub({ connection: 'offline' });
  // The events come down a port of their own, unanswered (decision 0090).
  const channel = new MessageChannel();
  channel.port1.onmessage = (message: MessageEvent<WorkerEvent>) => events.emitEvent(message.data);
  void worker.attachTab(tabId, transfer(channel.port2, [channel.port2]));
  return { worker, events };
}

function buildId(): string {
  return typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
}

/** SharedWorker when the browser has it; otherwise a dedicated worker per tab (a Web Lock elects the socket owner). */
function startWorker(): Remote<WorkerEndpoint> {
  const name = `lantern-${buildId()}`;
  if (typeof SharedWorker !== 'undefined') {
    const shared = new SharedWorker(new URL('../../worker/shared-entry.ts', import.meta.url), {
      type: 'module',
      name,
    });
    return wrap<WorkerEndpoint>(shared.port);
  }
  const dedicated = new Worker(new URL('../../worker/dedicated-entry.ts', import.meta.url), {
    type: 'module',
    name,
  });
  return wrap<WorkerEndpoint>(dedicated);
}

/**
 * Resolves once this tab holds its life lock; the lock is released only when the tab goes away. Rejects
 * where the browser refuses locks (a frame denied storage): the client cannot start there, and says so.
 */
function holdTabLock(tabId: string): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.locks) return Promise.resolve();
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(tabLockName(tabId), () => {
        resolve();
        return new Promise<never>(() => {});
      })
      .catch(reject);
  });
}
