// The sync engine: owns the socket and wires push (outbox-loop.ts), pull (pull.ts), live (live.ts)
// and refresh (refresh.ts) to the store. Constructible in Node with injected deps; implements WorkerApi.
import { isCreatingOperation, isSectionOperation, type OutboxDoc } from '../schemas/collections.ts';
import { protocolRefusal } from '../schemas/protocol/index.ts';
import { fetchJoinedChannels } from '../src/store/channels.ts';
import { createHttp, type Http, isSessionInvalid } from '../src/store/http.ts';
import { advanceLastSent } from '../src/store/last-sent.ts';
import { applyPinnedChange } from '../src/store/message-lists.ts';
import { applyServerMessages } from '../src/store/messages.ts';
import { DISCONNECTED_MESSAGE, type SendResult } from '../src/store/outbox-state.ts';
import { applyStar } from '../src/store/stars.ts';
import {
  fetchInstitutions,
  fetchMembers,
  fetchSections,
  setUserOnline,
  type WorkspaceStore,
} from '../src/store/workspaces.ts';
import { recordResult } from './acknowledgement.ts';
import type {
  ConnectionStatus,
  OpenedChannel,
  RefreshOutcome,
  RefreshTrigger,
  StoreRefresh,
  Visit,
  WorkerApi,
} from './api.ts';
import {
  type Unlisten,
  type WorkerEvent,
  WorkerEventHub,
  type WorkerEventName,
  type WorkerEventSource,
  type WorkerListener,
} from './events.ts';
import { LiveApplier } from './live.ts';
import { sendMessageAction } from './message-action-sender.ts';
import { OutboxLoop } from './outbox-loop.ts';
import { sendPost } from './post-sender.ts';
import { Puller } from './pull.ts';
import { Refresher } from './refresh.ts';
import { sendSectionOperation } from './section-sender.ts';
import { emitWithAck, type LanternSocket, openSocket, type SocketFactory } from './socket.ts';
import type { SyncDatabase } from './sync-database.ts';
import { type Clock, DEFAULT_TIMINGS, systemClock, type Timings } from './timings.ts';
import { raiseUnread } from './unread-counter.ts';
import { Uploader } from './uploader.ts';
import { WorkspaceEvents } from './workspace-events.ts';

export interface SyncEngineDeps {
  db: SyncDatabase;
  /** API origin ('' in the browser: same origin). */
  baseUrl: string;
  /** Where the socket connects; defaults to baseUrl (or the page origin). */
  socketUrl?: string;
  fetch?: typeof fetch;
  clock?: Clock;
  socketFactory?: SocketFactory;
  timings?: Partial<Timings>;
  /** Defaults to the session row's token. */
  getToken?: () => Promise<string | null>;
  log?: (message: string, error?: unknown) => void;
}

/** How long after a live message in an open channel the server is told it was read. */
const READ_DELAY_MS = 1_000;

export class SyncEngine implements WorkerApi, WorkerEventSource {
  private readonly db: SyncDatabase;

  /** The store this engine writes: the tabs' store reads run on it too (worker/store-watches.ts). */
  get database(): SyncDatabase {
    return this.db;
  }
  private readonly http: Http;
  private readonly timings: Timings;
  private readonly clock: Clock;
  private readonly deps: SyncEngineDeps;
  private readonly log: (message: string, error?: unknown) => void;
  private socket: LanternSocket | null = null;
  private status: ConnectionStatus = 'offline';
  private readonly events = new WorkerEventHub({ connection: 'offline' });
  private readonly openChannels = new Map<string, { institutionId: string; channelId: string }>();
  /** Channels whose live messages will be reported read (readSoon). */
  private readonly readTimers = new Map<string, unknown>();
  /** Channels marked read while offline, by id: their server counts reset on the next connection. */
  private readonly readWhenOnline = new Map<string, { institutionId: string; channelId: string }>();
  private readonly puller: Puller;
  private readonly live: LiveApplier;
  private readonly outbox: OutboxLoop;
  private readonly refresher: Refresher;
  private readonly workspaceEvents: WorkspaceEvents;
  /** Files kept offline. */
  private readonly uploader: Uploader;
  private outboxWatch: { unsubscribe(): void } | null = null;
  private joinedRooms = new Set<string>();
  private closed = false;
  private sessionQueue: Promise<void> = Promise.resolve();
  /** The token a tab last reported; undefined until one does (then the stored session is read). */
  private toldToken: string | null | undefined = undefined;

  constructor(deps: SyncEngineDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
    this.clock = deps.clock ?? systemClock;
    this.log = deps.log ?? ((m, e) => console.warn(m, e ?? ''));
    this.http = createHttp({
      baseUrl: deps.baseUrl,
      getToken: () => this.token(),
      fetch: deps.fetch,
      // A pull or settle stuck on a half-open connection would hold up every later one.
      timeoutMs: this.timings.connectTimeoutMs,
      onSessionInvalid: (refused) => this.events.emit('sessionInvalid', refused),
    });
    // Messages a catch-up brings count as unread like live ones, above the count's position (decision 0047).
    this.puller = new Puller(this.db, this.http, async (added) => {
      await raiseUnread(this.db, { messages: added, openChannelIds: this.openChannelIds(), via: 'pull' });
      await advanceLastSent(this.db.channels, added);
    });
    this.uploader = new Uploader({
      records: this.db.records,
      http: this.http,
      baseUrl: deps.baseUrl,
      fetch: deps.fetch,
      getToken: () => this.token(),
      isConnected: () => this.socket?.connected ?? false,
      onProgress: (progress) => this.events.emit('uploadProgress', progress),
      log: this.log,
    });
    this.live = new LiveApplier({
      db: this.db,
      pull: (id) => this.puller.pull(id),
      openChannelIds: () => this.openChannelIds(),
      seen: (channelId) => this.readSoon(channelId),
      arrived: (message) => this.events.emit('arrival', message),
      log: this.log,
    });
    this.outbox = new OutboxLoop({
      list: async () => (await this.db.outbox.find().exec()).map((d) => d.toJSON() as OutboxDoc),
      send: (entry) => this.send(entry),
      record: (entry, result) => this.record(entry, result),
      settle: (queued) => this.settle(queued),
      isConnected: () => this.socket?.connected ?? false,
      clock: this.clock,
      resyncIntervalMs: this.timings.resyncIntervalMs,
      log: this.log,
    });
    this.refresher = new Refresher(
      {
        hasToken: async () => (await this.token()) !== null,
        resetOpenUnread: () => this.resetOpenUnread(),
        refreshJoined: () => this.refreshJoined(),
        resyncPending: () => this.outbox.onConnect(),
        pullAll: () => this.pullAll(),
        log: this.log,
      },
      () => this.clock.now(),
    );
    this.workspaceEvents = new WorkspaceEvents({
      store: () => this.workspaceStore(),
      refreshJoined: async () => {
        await this.refreshJoined();
        await this.channelsChanged();
      },
      openChannels: () => [...new Map([...this.openChannels.values()].map((c) => [c.channelId, c])).values()],
      log: this.log,
    });
    // A row put in the outbox by any tab, or a failed row queued again (Retry in any tab), starts a
    // drain at once; multiInstance brings other tabs' writes here. Recording a transient result keeps a
    // row queued and must not kick (the resync timer owns those resends).
    this.outboxWatch = this.db.outbox.$.subscribe((event) => {
      if (event.operation === 'DELETE' || event.documentData.state !== 'queued') return;
      if (event.operation === 'UPDATE' && event.previousDocumentData?.state === 'queued') return;
      void this.outbox.kick();
    });
  }

  // ───────────── ConnectionHandlers ─────────────
  /**
   * Calls are queued one after another: two overlapping calls once raced, and a late one that read a
   * stale "no token" closed the socket the earlier one had just opened. The tab passes the token it
   * wrote, because this worker's own store instance may not have seen that write yet.
   */
  sessionChanged(token?: string | null): Promise<void> {
    const run = this.sessionQueue.then(() => this.applySession(token));
    this.sessionQueue = run.catch(() => undefined);
    return run;
  }

  private async applySession(told: string | null | undefined): Promise<void> {
    if (told !== undefined) this.toldToken = told;
    const token = await this.token();
    const current = this.socket;
    if (current && current.token === token) return;
    this.disconnect();
    if (this.closed) return;
    this.socket = openSocket(
      this.deps.socketUrl ?? this.deps.baseUrl,
      token,
      this.timings,
      this.deps.socketFactory,
      (m) => this.log(m),
    );
    if (this.socket) this.attach(this.socket);
  }

  async getConnectionStatus(): Promise<ConnectionStatus> {
    return this.status;
  }

  // ───────────── events (WorkerEventSource) ─────────────
  listen<E extends WorkerEventName>(event: E, listener: WorkerListener<E>): Unlisten {
    return this.events.listen(event, listener);
  }

  listenAll(sink: (event: WorkerEvent) => void): Unlisten {
    return this.events.listenAll(sink);
  }

  // ───────────── SyncHandlers ─────────────
  refresh(trigger: RefreshTrigger, force: boolean): Promise<RefreshOutcome> {
    return this.refresher.refresh(trigger, force);
  }

  drainOutbox(): Promise<void> {
    return this.outbox.kick();
  }

  async uploadFiles(ids?: readonly string[]): Promise<void> {
    await this.uploader.uploadAll(ids);
  }

  async refreshStore(refresh: StoreRefresh): Promise<void> {
    const store = this.workspaceStore();
    switch (refresh.kind) {
      case 'joinedChannels':
        await fetchJoinedChannels(
          { http: this.http, db: this.db },
          refresh.institutionId,
          this.openChannelIds(),
        );
        return this.channelsChanged();
      case 'members':
        return fetchMembers(store, refresh.institutionId);
      case 'sections':
        return fetchSections(store, refresh.institutionId);
    }
  }

  refreshWorkspaces(): Promise<string[]> {
    return fetchInstitutions(this.workspaceStore());
  }

  async selectWorkspace(institutionId: string): Promise<void> {
    const session = await this.db.session.findOne('current').exec();
    if (session && session.selectedInstitutionId !== institutionId)
      await session.incrementalPatch({ selectedInstitutionId: institutionId });
  }

  async channelsChanged(): Promise<void> {
    // An open channel the tab has just learnt of (a first visit) asks for its newest page at once, not
    // after the rooms are joined (decision 0061).
    const newest = this.newestOfOpenChannels();
    await this.joinRooms();
    await this.pullAll(newest);
  }

  pullChannel(channelId: string): Promise<void> {
    return this.puller.pull(channelId);
  }

  // ───────────── ChannelHandlers ─────────────
  async setOpenChannel(
    tabId: string,
    channel: { institutionId: string; channelId: string } | null,
  ): Promise<OpenedChannel> {
    if (!channel) {
      this.openChannels.delete(tabId);
      return { unreadBefore: 0 };
    }
    this.openChannels.set(tabId, channel);
    // Read before the reset zeroes it: the tab draws its "New" line above that many messages.
    const unreadBefore = await this.unreadHere(channel.channelId);
    await this.resetUnread(channel);
    await this.puller.newestFirst(channel.channelId).catch((e) => this.log('Newest messages not fetched', e));
    await this.puller.pull(channel.channelId).catch((e) => this.log('Pull failed', e));
    return { unreadBefore };
  }

  private async unreadHere(channelId: string): Promise<number> {
    const memberships = await this.db.channelMembers.find({ selector: { channelId } }).exec();
    return Math.max(0, ...memberships.map((m) => m.unreadCount));
  }

  async markChannelRead(channel: { institutionId: string; channelId: string }): Promise<void> {
    // Offline, the server hears of it on the next connection (with the open channels' resets).
    if (!this.socket?.connected) this.readWhenOnline.set(channel.channelId, channel);
    await this.resetUnread(channel);
  }

  // ───────────── MetricsHandlers ─────────────
  async visit(visit: Visit): Promise<void> {
    const socket = this.socket;
    // Offline visits are dropped: metrics are approximate, the outbox is for what people wrote.
    if (!socket?.connected) return;
    try {
      if (visit.kind === 'member') {
        const { institutionId, memberId } = visit;
        await emitWithAck(socket, 'visitMember', { institutionId, memberId }, this.timings.ackTimeoutMs);
      } else if (visit.kind === 'channel') {
        const { institutionId, channelId } = visit;
        await emitWithAck(socket, 'visitChannel', { institutionId, channelId }, this.timings.ackTimeoutMs);
      } else {
        const { institutionId, groupId } = visit;
        await emitWithAck(socket, 'visitGroup', { institutionId, groupId }, this.timings.ackTimeoutMs);
      }
    } catch (error) {
      this.log('Visit not recorded', error);
    }
  }

  // ───────────── lifecycle (not part of the comlink surface) ─────────────
  /** Waits until the outbox loop and live queue are quiet (tests). */
  async settled(): Promise<void> {
    await this.live.idle();
    await this.outbox.idle();
    await this.workspaceEvents.idle();
  }

  disconnect(): void {
    const s = this.socket;
    this.socket = null;
    this.joinedRooms.clear();
    s?.close();
    this.setStatus('offline');
    if (s) void this.showSelfOnline(false);
    this.outbox.onDisconnect();
  }

  /** A newer build took over the network (decision 0043): the tabs are told to reload, then it all stops. */
  retire(): void {
    this.close('outdated');
  }

  /** Stops for good; `last` is the connection state the tabs hear before their listeners go. */
  close(last?: ConnectionStatus): void {
    this.closed = true;
    for (const timer of this.readTimers.values()) this.clock.clearTimeout(timer);
    this.readTimers.clear();
    this.disconnect();
    if (last) this.setStatus(last);
    this.outbox.stop();
    this.outboxWatch?.unsubscribe();
    this.events.clear();
  }

  // ───────────── internals ─────────────
  private async token(): Promise<string | null> {
    if (this.deps.getToken) return this.deps.getToken();
    if (this.toldToken !== undefined) return this.toldToken;
    return (await this.db.session.findOne('current').exec())?.token ?? null;
  }

  /**
   * One's own presence is this device's socket: the server never tells a disconnected client it went
   * offline, and its own "online" may arrive before a member list fetched a moment earlier.
   */
  private async showSelfOnline(isOnline: boolean): Promise<void> {
    const [institution] = await this.db.institutions.find().exec();
    const userId = institution?.member.user.id;
    if (userId) await setUserOnline({ members: this.db.members }, userId, isOnline).catch(() => undefined);
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.events.emit('connection', status);
  }

  private attach(socket: LanternSocket): void {
    this.setStatus('connecting');
    socket.on('connect', () => {
      if (this.socket !== socket) return;
      this.setStatus('connected');
      void this.showSelfOnline(true);
      void this.onConnected(socket);
    });
    socket.on('disconnect', (reason) => {
      if (this.socket !== socket) return;
      // Plain disconnects are only logged (spec §4); socket.io reconnects on its own.
      this.log(`Socket disconnected: ${reason}`);
      this.joinedRooms.clear();
      this.setStatus('connecting');
      void this.showSelfOnline(false);
      this.outbox.onDisconnect();
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', (error) => {
      if (this.socket !== socket) return;
      this.log(`Socket connect_error: ${error.message}`);
      // The server's own words for a session that is gone (server/realtime/socket-auth.ts): the tabs sign out.
      if (isSessionInvalid(0, error.message) && socket.token)
        this.events.emit('sessionInvalid', socket.token);
      // Retrying cannot help a build the server no longer answers: tabs ask the person to reload.
      if (protocolRefusal.safeParse((error as Error & { data?: unknown }).data).success) {
        this.setStatus('outdated');
        return;
      }
      // A refusal by the server's middleware stops socket.io's own retries; keep trying on our clock.
      if (!socket.active)
        this.clock.setTimeout(
          () => this.socket === socket && socket.connect(),
          this.timings.reconnectionDelayMaxMs,
        );
    });
    socket.on('newMessage', (m) => void this.live.receive(m, 'new'));
    socket.on('newEditMessage', (m) => void this.live.receive(m, 'edit'));
    socket.on('newDeleteMessage', (m) => void this.live.receive(m, 'delete'));
    socket.on('newEditPinnedMessage', (m) => {
      void applyPinnedChange(this.db.records, m).catch((e) => this.log('Pinned list update failed', e));
    });
    // A star made or undone on another of this person's devices (stars are never broadcast to the channel).
    socket.on('messageStarred', (m) => {
      void applyStar(this.db, m).catch((e) => this.log('Star from another device not stored', e));
    });
    socket.on('refresh', (e) => void this.workspaceEvents.refresh(e));
    socket.on('memberAction', (e) => void this.workspaceEvents.memberAction(e));
    socket.on('userOnlineStatusUpdate', (e) => void this.workspaceEvents.onlineStatus(e));
    socket.on('userOnlineStatusUpdates', (e) => void this.workspaceEvents.onlineStatuses(e));
    // Passed on to the tabs, which compare it with their own build and offer a reload (decision 0043).
    socket.on('serverBuild', (e) => {
      if (typeof e?.buildId === 'string') this.events.emit('serverBuild', e.buildId);
    });
  }

  /** Spec §4: on connect and every reconnect, join all channels, catch up, then drain the outbox. */
  private async onConnected(socket: LanternSocket): Promise<void> {
    try {
      await this.joinRooms();
      await this.pullAll();
    } catch (error) {
      this.log('Catch-up after connect failed', error);
    }
    if (this.socket === socket && socket.connected) {
      // Files chosen offline start uploading now; posts waiting on them upload them first anyway.
      void this.uploader.uploadAll().catch((e) => this.log('Uploads after connect failed', e));
      await this.outbox.onConnect();
    }
    // Presence and layout may have changed while disconnected (no events reach a closed socket).
    void this.workspaceEvents.refresh({ value: 'members' });
    void this.workspaceEvents.refresh({ value: 'sections' });
  }

  private async joinRooms(): Promise<void> {
    const socket = this.socket;
    if (!socket?.connected) return;
    const states = await this.db.syncState.find().exec();
    await Promise.all(
      states
        .filter((s) => !this.joinedRooms.has(s.channelId))
        .map(async (s) => {
          try {
            const ack = await emitWithAck(
              socket,
              'joinChannel',
              { institutionId: s.institutionId, channelId: s.channelId },
              this.timings.ackTimeoutMs,
            );
            if ('ok' in ack) this.joinedRooms.add(s.channelId);
            else this.log(`joinChannel refused: ${ack.error.message}`);
          } catch (error) {
            this.log('joinChannel failed', error);
          }
        }),
    );
  }

  /**
   * Every channel through the workspace change feed: one request for many channels, after the open
   * channels' newest pages (`newest`, when the caller has already asked for them).
   */
  private async pullAll(newest: Promise<void> = this.newestOfOpenChannels()): Promise<void> {
    await newest;
    const states = await this.db.syncState.find().exec();
    await this.puller.pullMany(states.map((s) => s.channelId));
  }

  /** Joined channels of every workspace from the server (server-kept unread counts). */
  private async refreshJoined(): Promise<void> {
    const institutions = await this.db.institutions.find().exec();
    for (const inst of institutions) {
      await fetchJoinedChannels({ http: this.http, db: this.db }, inst.id, this.openChannelIds());
    }
    await this.joinRooms();
  }

  /** Open channels far behind show their newest messages before their history (decision 0061). */
  private async newestOfOpenChannels(): Promise<void> {
    await Promise.all(
      [...this.openChannelIds()].map((id) =>
        this.puller.newestFirst(id).catch((e) => this.log('Newest messages not fetched', e)),
      ),
    );
  }

  private openChannelIds(): Set<string> {
    return new Set([...this.openChannels.values()].map((c) => c.channelId));
  }

  /**
   * Messages that arrived live in a channel open on screen were seen: the server's count goes back to zero a
   * moment later (one reset per second at most per channel), so a reload or another device does not count
   * them as unread (issue 15 item 1).
   */
  private readSoon(channelId: string): void {
    if (this.readTimers.has(channelId)) return;
    const timer = this.clock.setTimeout(() => {
      this.readTimers.delete(channelId);
      const open = [...this.openChannels.values()].find((c) => c.channelId === channelId);
      if (open) void this.resetUnread(open);
    }, READ_DELAY_MS);
    this.readTimers.set(channelId, timer);
  }

  private async resetOpenUnread(): Promise<void> {
    const marked = [...this.readWhenOnline.values()];
    this.readWhenOnline.clear();
    await Promise.all([...this.openChannels.values(), ...marked].map((c) => this.resetUnread(c)));
  }

  private async resetUnread(channel: { institutionId: string; channelId: string }): Promise<void> {
    const memberships = await this.db.channelMembers
      .find({ selector: { channelId: channel.channelId } })
      .exec();
    for (const m of memberships) if (m.unreadCount > 0) await m.incrementalPatch({ unreadCount: 0 });
    const socket = this.socket;
    if (!socket?.connected) return;
    try {
      await emitWithAck(socket, 'resetUnreadCount', channel, this.timings.ackTimeoutMs);
    } catch (error) {
      this.log('resetUnreadCount failed', error);
    }
  }

  private async send(entry: OutboxDoc): Promise<SendResult> {
    const socket = this.socket;
    if (!socket) return { kind: 'transient', reason: 'not connected' };
    const op = entry.operation;
    // Offline means the socket is down: section changes wait like messages do.
    if (isSectionOperation(op))
      return socket.connected
        ? sendSectionOperation(this.http, entry, op)
        : { kind: 'transient', reason: DISCONNECTED_MESSAGE };
    const deps = { db: this.db, socket, ackTimeoutMs: this.timings.ackTimeoutMs };
    if (isCreatingOperation(op)) return sendPost({ ...deps, uploader: this.uploader }, entry, op);
    return sendMessageAction(deps, entry, op);
  }

  private record(entry: OutboxDoc, result: SendResult): Promise<void> {
    return recordResult(
      {
        db: this.db,
        log: this.log,
        notify: (notice) => this.events.emit('notice', notice),
        refreshSections: async (institutionId) => {
          await fetchSections(this.workspaceStore(), institutionId);
        },
      },
      entry,
      result,
    );
  }

  /** The store and REST client for workspace lists. */
  private workspaceStore(): WorkspaceStore {
    const { channels, channelMembers, members, institutions, invitations, records, outbox } = this.db;
    return {
      http: this.http,
      db: { channels, channelMembers, members, institutions, invitations, records, outbox },
    };
  }

  /** Asks the server which queued posts it already holds and confirms those (they are not resent). */
  private async settle(queued: OutboxDoc[]): Promise<void> {
    const byInstitution = new Map<string, string[]>();
    for (const e of queued) {
      if (!isCreatingOperation(e.operation)) continue;
      const list = byInstitution.get(e.institutionId) ?? [];
      list.push(e.genId);
      byInstitution.set(e.institutionId, list);
    }
    for (const [institutionId, genIds] of byInstitution) {
      for (let i = 0; i < genIds.length; i += 500) {
        const res = await this.http.call('knownMessages', {
          params: { id: institutionId },
          body: { genIds: genIds.slice(i, i + 500) },
        });
        await applyServerMessages(this.db, res.data);
      }
    }
  }
}
