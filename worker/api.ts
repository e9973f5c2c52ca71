// The worker's whole comlink surface: what a tab may ask of the network owner, grouped by domain.
// Tabs hold `Remote<WorkerApi>`; the fallback (dedicated worker per tab) exposes the same interface.

export type ConnectionStatus = 'offline' | 'connecting' | 'connected';

/** Spec §4 refresh triggers; the tab listens for the DOM events and reports them here. */
export type RefreshTrigger = 'load' | 'visible' | 'pageshow' | 'resume' | 'online' | 'manual';

export type RefreshOutcome = 'ran' | 'skipped-no-token' | 'skipped-throttled' | 'skipped-busy' | 'failed';

export interface ConnectionHandlers {
  /**
   * The session changed: connect with this token (null: signed out, disconnect). Without an argument the
   * worker reads the stored session (start-up).
   */
  sessionChanged(token?: string | null): Promise<void>;
  getConnectionStatus(): Promise<ConnectionStatus>;
  /** The callback must be wrapped in comlink's proxy(); it is called at once and on every change. */
  subscribeConnection(listener: (status: ConnectionStatus) => void): Promise<void>;
}

export interface SyncHandlers {
  /** Run the spec §4 refresh; `force` after more than 5 minutes hidden. */
  refresh(trigger: RefreshTrigger, force: boolean): Promise<RefreshOutcome>;
  /** New rows were put in the outbox; send them now if connected. */
  drainOutbox(): Promise<void>;
  /** Files were chosen (or retried): upload the queued ones now if connected (decision 0006). */
  uploadFiles(): Promise<void>;
  /** Joined channels changed (join, leave, create): join the socket rooms and pull. */
  channelsChanged(): Promise<void>;
  /** Catch up one channel from its checkpoint. */
  pullChannel(channelId: string): Promise<void>;
}

export interface ChannelHandlers {
  /** The tab shows this channel (null: none). Drives the unread rule and resets the server count. */
  setOpenChannel(tabId: string, channel: { institutionId: string; channelId: string } | null): Promise<void>;
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

export type WorkerApi = ConnectionHandlers & SyncHandlers & ChannelHandlers & MetricsHandlers;
