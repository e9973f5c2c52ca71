// The tab's single entry to data: opens the store, starts the worker, and holds the REST client.
import { proxy, type Remote } from 'comlink';
import type { WorkerEndpoint } from '../../worker/api.ts';
import type { WorkerEventHub } from '../../worker/events.ts';
import { clearFirstScreens } from '../first-screen/store.ts';
import { DEFAULT_DATABASE_NAME, type LanternDatabase, openLanternDatabase } from '../store/database.ts';
import { clearFileBlobs } from '../store/file-blobs.ts';
import { createHttp, type Http } from '../store/http.ts';
import { addArrival } from '../store/local-echo.ts';
import { markOutdated, noteServerBuild } from './app-version.ts';
import { deviceId } from './device-id.ts';
import { installPushRefresh } from './push.ts';
import { installRefreshTriggers } from './refresh-triggers.ts';
import { workerCall } from './rest-calls.ts';
import { markSignedIn } from './session-marker.ts';
import { installSessionPing } from './session-ping.ts';
import { connectStoreReads, deliverStoreResult, setStoreReadStarter } from './store-reads.ts';
import { connectWorker } from './worker-connection.ts';

export interface LanternClient {
  db: LanternDatabase;
  worker: Remote<WorkerEndpoint>;
  /** The worker's events in this tab: listen(event, callback) returns the unlisten. */
  events: WorkerEventHub;
  http: Http;
  /** Identifies this tab to the worker (open channel per tab). */
  tabId: string;
}

interface ClientOptions {
  baseUrl?: string;
  databaseName?: string;
  /** Tests inject a worker (e.g. the sync engine's API run in-process). */
  worker?: Remote<WorkerEndpoint>;
  /** A refresh failed (spec §8): the page decides whether to show it (debug environments only). */
  onRefreshFailure?: (message: string) => void;
}

let starting: Promise<LanternClient> | null = null;
setStoreReadStarter(() => void startClient());
let ready: LanternClient | null = null;
const readyListeners = new Set<() => void>();

/** Starts the client once; later calls return the same promise. */
export function startClient(options: ClientOptions = {}): Promise<LanternClient> {
  if (starting) return starting;
  starting = (async () => {
    // Opened before the worker starts: two first opens of one store at once (tab and worker) raced, and
    // the worker's store then stored nothing it pulled.
    const db = await openLanternDatabase(options.databaseName ?? DEFAULT_DATABASE_NAME);
    const tabId = crypto.randomUUID();
    const { worker, events } = await connectWorker(tabId, options.worker);
    // The screens' reads are the worker's (decision 0065).
    void worker.openStore(tabId, proxy(deliverStoreResult));
    connectStoreReads({ worker, tabId });
    const baseUrl = options.baseUrl ?? '';
    const getToken = async () => (await db.session.findOne('current').exec())?.token ?? null;
    const onSessionInvalid = () => {
      void clearLocalSession(db).then(() => worker.sessionChanged(null));
    };
    const http = createHttp({ baseUrl, getToken, onSessionInvalid, onOutdated: markOutdated, deviceId });
    const client: LanternClient = {
      db,
      worker,
      events,
      tabId,
      // A page's reads are made by its worker, which holds the route table and zod already; its writes
      // come back to this tab (decision 0062). A test's injected worker leaves them all in this tab.
      http: options.worker
        ? http
        : {
            ...http,
            call: workerCall(worker, http.call, {
              baseUrl,
              getToken,
              onSessionInvalid,
              onOutdated: markOutdated,
            }),
          },
    };
    events.listen('connection', (status) => {
      if (status === 'outdated') markOutdated();
    });
    // The socket says the served build on every connection: a deploy shows as soon as it reconnects.
    events.listen('serverBuild', (buildId) => noteServerBuild(buildId));
    events.listen('arrival', addArrival);
    ready = client;
    for (const l of readyListeners) l();
    void db.session
      .findOne('current')
      .exec()
      .then((session) => worker.sessionChanged(session?.token ?? null));
    if (typeof window !== 'undefined' && !options.worker) {
      installRefreshTriggers(worker, options.onRefreshFailure ? { onFailure: options.onRefreshFailure } : {});
      const ping = installSessionPing(
        client.http,
        async () => (await db.session.findOne('current').exec()) !== null,
      );
      // A new session (e-mail code, provider, launch) is announced at once, with this device's id.
      let token: string | null = null;
      db.session.findOne('current').$.subscribe((doc) => {
        if (doc?.token && token !== null && doc.token !== token) ping.pingNow();
        token = doc?.token ?? '';
        markSignedIn(!!doc);
      });
      installPushRefresh(client.http, async () => (await db.session.findOne('current').exec()) !== null);
      // Only a window may ask for persistent storage (not the worker); the outbox must survive eviction.
      void navigator.storage?.persist?.().catch(() => false);
    }
    return client;
  })();
  return starting;
}

/** The client once started, else null (hooks render `undefined` until then). */
export function getReadyClient(): LanternClient | null {
  return ready;
}

export function subscribeClientReady(listener: () => void): () => void {
  readyListeners.add(listener);
  return () => readyListeners.delete(listener);
}

/** For actions: the started client, starting it if needed. */
export function requireClient(): Promise<LanternClient> {
  return ready ? Promise.resolve(ready) : startClient();
}

/** Sign-out and invalid sessions clear every store (spec §4 Session), keeping only settings. */
export async function clearLocalSession(db: LanternDatabase): Promise<void> {
  // The session first, on its own: its removal sends every route to sign-in before the workspace rows
  // vanish, so an open workspace screen never sees its workspace gone and shows "Page Not Found" instead.
  // The channel pictures stop first: a screen re-rendering while its rows go must not take a new one.
  clearFirstScreens();
  markSignedIn(false);
  await db.session.find().remove();
  await Promise.all(
    (
      [
        'messages',
        'outbox',
        'drafts',
        'channels',
        'channelMembers',
        'members',
        'institutions',
        'invitations',
        'syncState',
        'records',
      ] as const
    ).map((name) => db[name].find().remove()),
  );
  // Files chosen offline and not yet uploaded are the signed-out person's too.
  await clearFileBlobs().catch(() => undefined);
}
