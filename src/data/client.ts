// The tab's single entry to data: starts the worker, holds the REST client, and opens this tab's own store
// for its writes when first needed.
import { type Remote, transfer } from 'comlink';
import type { StoreResult, WorkerEndpoint } from '../../worker/api.ts';
import type { WorkerEventHub } from '../../worker/events.ts';
import { afterFirstRows } from '../first-screen/rows-painted.ts';
import { clearFirstScreens } from '../first-screen/store.ts';
import type { LanternDatabase } from '../store/database.ts';
import { DEFAULT_DATABASE_NAME } from '../store/database-name.ts';
import { clearFileBlobs } from '../store/file-blobs.ts';
import { createHttp, type Http } from '../store/http.ts';
import { addArrival } from '../store/local-echo.ts';
import { markOutdated, noteServerBuild } from './app-version.ts';
import { deviceId } from './device-id.ts';
import { forgetBeginnings } from './history-beginning.ts';
import { installPushRefresh } from './push.ts';
import { installRefreshTriggers } from './refresh-triggers.ts';
import { workerCall } from './rest-calls.ts';
import { markSignedIn } from './session-marker.ts';
import { installSessionPing } from './session-ping.ts';
import {
  connectStoreReads,
  deliverStoreResult,
  readStoreOnce,
  setStoreReadStarter,
  subscribeStoreRead,
} from './store-reads.ts';
import { forgetAllUnsavedDrafts, unsavedDrafts } from './unsaved-drafts.ts';
import { connectWorker } from './worker-connection.ts';

export interface LanternClient {
  worker: Remote<WorkerEndpoint>;
  /** The worker's events in this tab: listen(event, callback) returns the unlisten. */
  events: WorkerEventHub;
  http: Http;
  /** Identifies this tab to the worker (open channel per tab). */
  tabId: string;
}

/** The client with this tab's own store, for writes (opened when first needed, decision 0065). */
export interface StoreClient extends LanternClient {
  db: LanternDatabase;
}

interface ClientOptions {
  baseUrl?: string;
  databaseName?: string;
  /** Tests inject a worker (e.g. the sync engine's API run in-process). */
  worker?: Remote<WorkerEndpoint>;
  /** A refresh failed (spec §8): the page decides whether to show it (debug environments only). */
  onRefreshFailure?: (message: string) => void;
  /** The worker's store could not open (a newer database on the device, storage withheld). */
  onStoreFailure?: (error: unknown) => void;
}

let starting: Promise<LanternClient> | null = null;
setStoreReadStarter(() => void startClient());
let ready: LanternClient | null = null;
const readyListeners = new Set<() => void>();
/** Opens this tab's store: set when the client starts. */
let openStore: () => Promise<LanternDatabase> = () =>
  Promise.reject(new Error('The client has not started.'));
let store: Promise<StoreClient> | null = null;

/**
 * Starts the client once; later calls return the same promise. The screens read the store through the
 * worker; this tab's own store (RxDB, off the first path) opens when a write first needs it, or once the
 * first rows are painted.
 */
export function startClient(options: ClientOptions = {}): Promise<LanternClient> {
  if (starting) return starting;
  starting = (async () => {
    const tabId = crypto.randomUUID();
    const { worker, events } = await connectWorker(tabId, options.worker);
    // The store's results come down a port of their own, unanswered (decision 0089).
    const results = new MessageChannel();
    results.port1.onmessage = (event: MessageEvent<StoreResult>) => deliverStoreResult(event.data);
    const storeOpened = worker.openStore(tabId, transfer(results.port2, [results.port2]));
    connectStoreReads({ worker, tabId });
    // The worker's store that cannot open is this tab's too: the page shows its error page (main.tsx) and
    // this tab's own store is not tried (in a course frame without storage the launch offers a window of
    // its own, lti-launch.tsx).
    storeOpened.catch((error: unknown) => options.onStoreFailure?.(error));
    // The session as the worker's store holds it, once (e.g. the token for a call); none without a store.
    const noStore = storeOpened.then(
      () => new Promise<never>(() => {}),
      () => null,
    );
    const storedSession = () => Promise.race([readStoreOnce('session', {}), noStore]);
    const databaseName = options.databaseName ?? DEFAULT_DATABASE_NAME;
    openStore = async () => {
      // After the worker's store has opened: a tab and a worker opening one store for the first time at
      // the same moment raced (the worker's store then kept nothing it pulled). A test's in-process worker
      // opens its store from this one, so there the tab's goes first.
      if (!options.worker) await storeOpened;
      const { openLanternDatabase } = await import('../store/database.ts');
      return openLanternDatabase(databaseName);
    };
    const baseUrl = options.baseUrl ?? '';
    const getToken = async () => (await storedSession())?.token ?? null;
    // Several refusals come at once (parallel requests, the socket's retries): one sign-out runs at a time,
    // since two clearing the same rows conflict in the store.
    let signingOut = false;
    const onSessionInvalid = () => {
      if (signingOut) return;
      signingOut = true;
      void requireClient()
        .then(({ db }) => clearLocalSession(db))
        .then(() => worker.sessionChanged(null))
        .catch((error: unknown) => console.warn('Signing out after the session was refused failed', error))
        .finally(() => {
          signingOut = false;
        });
    };
    const http = createHttp({ baseUrl, getToken, onSessionInvalid, onOutdated: markOutdated, deviceId });
    const client: LanternClient = {
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
    // The worker's own work found the session refused (a pull, a refresh, the socket's handshake): sign out
    // as a refused request of this tab's would, unless this tab's session is another one by now.
    events.listen('sessionInvalid', (refused) => {
      void storedSession().then((session) => {
        if (session?.token === refused) onSessionInvalid();
      });
    });
    ready = client;
    for (const l of readyListeners) l();
    if (options.worker) await requireClient();
    void storedSession().then((session) => worker.sessionChanged(session?.token ?? null));
    if (typeof window !== 'undefined' && !options.worker) {
      installRefreshTriggers(worker, options.onRefreshFailure ? { onFailure: options.onRefreshFailure } : {});
      const signedIn = async () => (await storedSession()) !== null;
      const ping = installSessionPing(client.http, signedIn);
      // A new session (e-mail code, provider, launch) is announced at once, with this device's id.
      let token: string | null = null;
      subscribeStoreRead('session', {}, (session) => {
        if (session === undefined) return;
        if (session?.token && token !== null && session.token !== token) ping.pingNow();
        token = session?.token ?? '';
        markSignedIn(!!session);
      });
      installPushRefresh(client.http, signedIn);
      // Words a composer had not handed over when the last page went (decision 0074). Almost every start
      // has none: the drafts module is fetched only when there are.
      if (unsavedDrafts().length > 0)
        void import('./drafts.ts')
          .then((drafts) => drafts.recoverUnsavedDrafts())
          .catch((error: unknown) => console.warn('Unsaved drafts could not be recovered', error));
      // Only a window may ask for persistent storage (not the worker); the outbox must survive eviction.
      void navigator.storage?.persist?.().catch(() => false);
      // Ready before the first action needs it, but not before the first rows.
      afterFirstRows(() => void requireClient().catch(() => undefined));
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

/** The started client without this tab's store: what reads, refreshes and worker calls need. */
export function requireConnection(): Promise<LanternClient> {
  return ready ? Promise.resolve(ready) : startClient();
}

/** For writes: the started client with this tab's store, starting and opening them if needed. */
export function requireClient(): Promise<StoreClient> {
  store ??= requireConnection().then(async (client) => ({ ...client, db: await openStore() }));
  return store;
}

let clearing: Promise<void> | null = null;

/**
 * Sign-out and invalid sessions clear every store (spec §4 Session), keeping only settings. One clearing at a
 * time: a second caller (the server refusing the session while the tab signs out or deletes the account)
 * waits for the running one, since two removing the same rows conflict in the store.
 */
export function clearLocalSession(db: LanternDatabase): Promise<void> {
  clearing ??= clearStores(db).finally(() => {
    clearing = null;
  });
  return clearing;
}

async function clearStores(db: LanternDatabase): Promise<void> {
  // The session first, on its own: its removal sends every route to sign-in before the workspace rows
  // vanish, so an open workspace screen never sees its workspace gone and shows "Page Not Found" instead.
  // The channel pictures stop first: a screen re-rendering while its rows go must not take a new one.
  clearFirstScreens();
  forgetBeginnings();
  forgetAllUnsavedDrafts();
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
