// The worker's whole comlink surface: what a tab may ask of the network owner, grouped by domain, and
// how a tab hears the worker's events. Tabs hold `Remote<WorkerEndpoint>`; the SharedWorker and the
// fallback (a dedicated worker per tab, forwarding to the lock holder) expose the same interface.
import type { DraftWrite } from '../src/store/drafts.ts';
import type { ConnectionStatus, WorkerEvent } from './events.ts';
import type { RestCallHandlers } from './rest-calls.ts';
import type { StoreChange } from './store-changes.ts';
import type { StoreReadName } from './store-reads.ts';

export type { ConnectionStatus } from './events.ts';

/** Spec §4 refresh triggers; the tab listens for the DOM events and reports them here. */
export type RefreshTrigger = 'load' | 'visible' | 'pageshow' | 'resume' | 'online' | 'manual';

/** A refresh that failed rejects with its error instead (the tab logs it, and toasts it in debug environments). */
export type RefreshOutcome = 'ran' | 'skipped-no-token' | 'skipped-throttled' | 'skipped-busy';

export interface ConnectionHandlers {
  /**
   * The session changed: connect with this token (null: signed out, disconnect). Without an argument the
   * worker reads the stored session (start-up).
   */
  sessionChanged(token?: string | null): Promise<void>;
  getConnectionStatus(): Promise<ConnectionStatus>;
}

/**
 * A part of the store a screen refreshes from the server when it mounts (decision 0065): the worker asks
 * and writes the answer, so the page's first screen needs no store of its own.
 */
export type StoreRefresh =
  | { kind: 'joinedChannels'; institutionId: string }
  | { kind: 'members'; institutionId: string }
  | { kind: 'sections'; institutionId: string };

export interface SyncHandlers {
  /** Fetches `refresh`'s rows from the server into the store (rejects offline, as the fetch does). */
  refreshStore(refresh: StoreRefresh): Promise<void>;
  /**
   * Workspaces and pending invitations from the server into the store; resolves with the workspace ids the
   * server listed, so a screen can tell "not yet read" from "not yours" (rejects offline).
   */
  refreshWorkspaces(): Promise<string[]>;
  /** The person opened this workspace: it becomes the session's selected one. */
  selectWorkspace(institutionId: string): Promise<void>;
  /** Run the spec §4 refresh; `force` after more than 5 minutes hidden. */
  refresh(trigger: RefreshTrigger, force: boolean): Promise<RefreshOutcome>;
  /** New rows were put in the outbox; send them now if connected. */
  drainOutbox(): Promise<void>;
  /**
   * Files were chosen (or retried): upload the queued ones now if connected (decision 0006). `ids` names
   * the tab's new ones, which this worker's store may see a moment after the tab wrote them.
   */
  uploadFiles(ids?: readonly string[]): Promise<void>;
  /** Joined channels changed (join, leave, create): join the socket rooms and pull. */
  channelsChanged(): Promise<void>;
  /** Catch up one channel from its checkpoint. */
  pullChannel(channelId: string): Promise<void>;
}

/** What the tab learns when it opens a channel. */
export interface OpenedChannel {
  /** The channel's unread count on this device just before opening reset it: where "New" starts. */
  unreadBefore: number;
}

export interface ChannelHandlers {
  /**
   * The tab shows this channel (null: none). Drives the unread rule and resets the server count; resolves
   * once the channel is caught up.
   */
  setOpenChannel(
    tabId: string,
    channel: { institutionId: string; channelId: string } | null,
  ): Promise<OpenedChannel>;
  /** "Mark as read" on a channel not open: its count goes to zero here at once and on the server when online. */
  markChannelRead(channel: { institutionId: string; channelId: string }): Promise<void>;
}

/** A visit recorded for metrics (most-visited members, channels, groups). */
export type Visit =
  | { kind: 'member'; institutionId: string; memberId: string }
  | { kind: 'channel'; institutionId: string; channelId: string }
  | { kind: 'group'; institutionId: string; groupId: string };

export interface MetricsHandlers {
  /** Sent over the socket when connected, dropped when not (fire-and-forget, never queued). */
  visit(visit: Visit): Promise<void>;
}

/** Every call a tab may make: plain data in, plain data out, so any of them can be forwarded. */
export type WorkerApi = ConnectionHandlers & SyncHandlers & ChannelHandlers & MetricsHandlers;

/**
 * The names of every WorkerApi method. The mapped type makes a method missing here a type error, so
 * whatever forwards calls from this list (the lazy engine API, the fallback's channel) cannot forget one.
 */
export const WORKER_METHODS: { [M in keyof WorkerApi]: M } = {
  sessionChanged: 'sessionChanged',
  getConnectionStatus: 'getConnectionStatus',
  refresh: 'refresh',
  refreshStore: 'refreshStore',
  refreshWorkspaces: 'refreshWorkspaces',
  selectWorkspace: 'selectWorkspace',
  drainOutbox: 'drainOutbox',
  uploadFiles: 'uploadFiles',
  channelsChanged: 'channelsChanged',
  pullChannel: 'pullChannel',
  setOpenChannel: 'setOpenChannel',
  markChannelRead: 'markChannelRead',
  visit: 'visit',
};

export type WorkerMethod = keyof WorkerApi;

/** Builds a WorkerApi whose every method is `call(method, args)`. */
export function forwardingApi(
  call: <M extends WorkerMethod>(method: M, args: Parameters<WorkerApi[M]>) => ReturnType<WorkerApi[M]>,
): WorkerApi {
  const api: Partial<Record<WorkerMethod, unknown>> = {};
  for (const method of Object.values(WORKER_METHODS))
    api[method] = (...args: Parameters<WorkerApi[typeof method]>) => call(method, args);
  return api as WorkerApi;
}

/**
 * The worker's end of a MessageChannel whose other end a tab listens on (transferred with comlink's
 * transfer()): one message each, nothing answered (decisions 0089, 0090).
 */
export interface TabPort<T> {
  postMessage(message: T): void;
  close(): void;
}

export interface TabHandlers {
  /**
   * Registers the tab's one event port: it hears every worker event, the current connection state first.
   * The worker drops it when the tab's lock `tabLockName(tabId)` is released, that is when the tab closes,
   * so it keeps no listeners of closed tabs.
   */
  attachTab(tabId: string, events: WorkerEventPort): Promise<void>;
}

/** Where a tab's worker events go (decision 0090). */
export type WorkerEventPort = TabPort<WorkerEvent>;

/** One result of a tab's store read: what changed since the last one it sent (worker/store-changes.ts), or why it stopped. */
export type StoreResult = { watchId: string; change: StoreChange } | { watchId: string; error: string };

/** Where a tab's store results go (decision 0089). */
export type StoreResultPort = TabPort<StoreResult>;

/**
 * Throws unless `port` can be posted to and closed: what comes through comlink is whatever the tab sent, so
 * anything but a port is refused, not kept.
 */
export function requireTabPort(port: unknown, call: string): void {
  const candidate = port as Partial<TabPort<unknown>> | null;
  if (typeof candidate?.postMessage !== 'function' || typeof candidate.close !== 'function')
    throw new Error(`${call} needs a MessagePort.`);
}

/**
 * The tab's reads of the store (decision 0065): named live queries of worker/store-reads.ts run on the
 * worker's store, their results sent down the tab's one port. A tab's watches stop when its life lock is
 * released.
 */
export interface StoreReadHandlers {
  /**
   * Registers the tab's result port (transferred with comlink's transfer()); a second call replaces the
   * first. Resolves once the worker's store is open, and rejects when it cannot open.
   */
  openStore(tabId: string, results: StoreResultPort): Promise<void>;
  /** Starts the read `name` with `args`; its first result and every change go down the tab's port. */
  watchStore(tabId: string, watchId: string, name: StoreReadName, args: unknown): Promise<void>;
  unwatchStore(tabId: string, watchId: string): Promise<void>;
}

/** Store writes a tab leaves to its worker (worker/store-writes.ts), to keep them off the page's thread. */
export interface StoreWriteHandlers {
  /** Keeps `draft` as its channel's draft, or removes the channel's draft when it is empty (spec §4, §5). */
  saveDraft(draft: DraftWrite): Promise<void>;
}

/**
 * What a tab's comlink endpoint offers. restCall and the store's reads and writes are served by the
 * worker the tab talks to, not forwarded to the network's owner: they need nothing of the engine
 * (worker/rest-calls.ts, worker/store-watches.ts, worker/store-writes.ts).
 */
export type WorkerEndpoint = WorkerApi &
  TabHandlers &
  RestCallHandlers &
  StoreReadHandlers &
  StoreWriteHandlers;

/** The Web Lock a tab holds for its whole life; its release tells the worker the tab is gone. */
export function tabLockName(tabId: string): string {
  return `lantern-tab:${tabId}`;
}
