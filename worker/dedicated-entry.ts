// Fallback where SharedWorker is missing: this module runs as a dedicated Worker in every tab and a
// Web Lock elects the one whose engine owns the socket. The others never connect; their tab's writes
// reach the owner through the shared store (multiInstance), and open-channel reports through a
// BroadcastChannel. When the owner's tab closes, the lock passes to the next tab.
import '../src/app/zod-without-eval.ts';
import { expose } from 'comlink';
import type { Visit, WorkerApi } from './api.ts';
import { lazyApi, startEngine } from './engine-host.ts';

const LOCK_NAME = 'lantern-network';
const engine = startEngine();
const inner = lazyApi(engine);
const openChannels = new BroadcastChannel('lantern-open-channels');
let leader = false;

type OpenReport = { tabId: string; channel: { institutionId: string; channelId: string } | null };
type SessionReport = { token: string | null };

openChannels.onmessage = (event: MessageEvent<OpenReport>) => {
  if (leader) void inner.setOpenChannel(event.data.tabId, event.data.channel);
};
// A tab that is not the leader signs in or out: the leader's engine must hear the new token.
const sessions = new BroadcastChannel('lantern-session');
sessions.onmessage = (event: MessageEvent<SessionReport>) => {
  if (leader) void inner.sessionChanged(event.data.token);
};

// Visits go out through the leader's socket.
const visits = new BroadcastChannel('lantern-visits');
visits.onmessage = (event: MessageEvent<Visit>) => {
  if (leader) void inner.visit(event.data);
};

void navigator.locks.request(LOCK_NAME, async () => {
  leader = true;
  await inner.sessionChanged();
  // Hold the lock for the life of this worker.
  await new Promise<never>(() => {});
});

const api: WorkerApi = {
  ...inner,
  sessionChanged: async (token) => {
    if (leader) await inner.sessionChanged(token);
    else if (token !== undefined) sessions.postMessage({ token } satisfies SessionReport);
  },
  setOpenChannel: async (tabId, channel) => {
    if (leader) await inner.setOpenChannel(tabId, channel);
    else openChannels.postMessage({ tabId, channel } satisfies OpenReport);
  },
  visit: async (visit) => {
    if (leader) await inner.visit(visit);
    else visits.postMessage(visit);
  },
};

expose(api);
