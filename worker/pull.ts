import { CHANGES_CHANNELS_MAX, CHANGES_PAGE_MAX } from '../schemas/protocol/index.ts';
import type { Http } from '../src/store/http.ts';
import { ApiError } from '../src/store/http.ts';
import { MessageBatcher, type OnStored } from '../src/store/message-batcher.ts';
import { FIRST_WINDOW } from '../src/store/message-window.ts';
import { reconcileStars } from '../src/store/stars.ts';
import type { SyncDatabase } from './sync-database.ts';

interface PullState {
  channelId: string;
  institutionId: string;
  checkpoint: number;
}

export class Puller {
  private readonly running = new Map<string, Promise<void>>();
  /** Newest pages being fetched, by channel: a second ask waits for the first. */
  private readonly heading = new Map<string, Promise<void>>();
  private readonly rerun = new Set<string>();
  private readonly db: SyncDatabase;
  private readonly http: Http;
  /** Pages of channels pulled at once share their writes. */
  private readonly writer: MessageBatcher;

  constructor(db: SyncDatabase, http: Http, onStored?: OnStored) {
    this.db = db;
    this.http = http;
    this.writer = new MessageBatcher(db, onStored);
  }

  /**
   * An open channel more than a page of changes behind (a first visit, a long absence) gets its newest
   * messages stored before the pull from its checkpoint, which brings the history oldest first: the
   * screen shows the latest at once instead of after thousands of older ones. The checkpoint stays where
   * it is, since what lies between it and this page is still to come.
   */
  newestFirst(channelId: string): Promise<void> {
    const current = this.heading.get(channelId);
    if (current) return current;
    const run = this.fetchNewest(channelId).finally(() => this.heading.delete(channelId));
    this.heading.set(channelId, run);
    return run;
  }

  private async fetchNewest(channelId: string): Promise<void> {
    const [state, channel] = await Promise.all([
      this.db.syncState.findOne(channelId).exec(),
      this.db.channels.findOne(channelId).exec(),
    ]);
    if (!state || !channel || channel.lastSeq - state.checkpoint <= CHANGES_PAGE_MAX) return;
    const held = await this.db.messages
      .findOne({ selector: { channelId, createdSeq: { $gte: channel.lastSeq } } })
      .exec();
    if (held) return;
    const res = await this.http.call('messages', {
      params: { id: state.institutionId, channelId },
      query: { page: '1', limit: String(FIRST_WINDOW) },
    });
    // Ahead of any history page already waiting to be written: those are not on screen.
    await this.writer.applyFirst(res.data);
  }

  /** Pulls a channel; resolves after a pull that started after this call has finished. */
  pull(channelId: string): Promise<void> {
    const current = this.running.get(channelId);
    if (current) {
      this.rerun.add(channelId);
      return current;
    }
    return this.track(channelId, () => this.pullOnce(channelId));
  }

  /**
   * Pulls many channels (a reconnect's catch-up) through the workspace change feed: one request per
   * workspace for up to CHANGES_CHANNELS_MAX channels, again only for channels with more to come.
   * Resolves after a pull of each that started after this call; rejects with the first failure, every
   * other channel pulled all the same.
   */
  async pullMany(channelIds: readonly string[]): Promise<void> {
    const ids = [...new Set(channelIds)];
    const idle = ids.filter((id) => !this.running.has(id));
    const busy = ids.filter((id) => this.running.has(id));
    const waits: Promise<void>[] = [];
    // A channel being pulled is pulled again once that pull is over, in a batch of its own (a second
    // catch-up during the first would otherwise send one request per channel).
    if (busy.length)
      waits.push(
        (async () => {
          await Promise.allSettled(busy.map((id) => this.running.get(id)));
          await this.pullMany(busy);
        })(),
      );
    if (idle.length) {
      const batch = this.pullBatch(idle);
      for (const id of idle)
        waits.push(
          this.track(id, async () => {
            const error = (await batch).get(id);
            if (error !== undefined) throw error;
          }),
        );
    }
    const results = await Promise.allSettled(waits);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Runs a channel's first pull, then one more for each pull asked for meanwhile. */
  private track(channelId: string, first: () => Promise<void>): Promise<void> {
    const run = (async () => {
      try {
        this.rerun.delete(channelId);
        await first();
        while (this.rerun.has(channelId)) {
          this.rerun.delete(channelId);
          await this.pullOnce(channelId);
        }
      } finally {
        this.running.delete(channelId);
      }
    })();
    this.running.set(channelId, run);
    return run;
  }

  private async pullOnce(channelId: string): Promise<void> {
    for (;;) {
      const state = await this.db.syncState.findOne(channelId).exec();
      if (!state) return; // left the channel
      const res = await this.http.call('messageChanges', {
        params: { id: state.institutionId, channelId },
        query: { after: String(state.checkpoint), limit: String(CHANGES_PAGE_MAX) },
      });
      // The page lands in a few bulk writes (one per message made a long catch-up client-bound).
      await this.writer.apply(res.data);
      await this.advance(channelId, res.metadata.lastSeq);
      if (!res.metadata.hasMore) return;
    }
  }

  /** The channels' pages in rounds; what failed, by channel (absent: pulled to the end). */
  private async pullBatch(channelIds: readonly string[]): Promise<Map<string, unknown>> {
    const failed = new Map<string, unknown>();
    let pending = channelIds;
    while (pending.length) {
      const found = await this.db.syncState.findByIds([...pending]).exec();
      const more: string[] = [];
      const requests: PullState[][] = [];
      const byWorkspace = new Map<string, PullState[]>();
      for (const doc of found.values()) {
        const list = byWorkspace.get(doc.institutionId) ?? [];
        list.push({ channelId: doc.channelId, institutionId: doc.institutionId, checkpoint: doc.checkpoint });
        byWorkspace.set(doc.institutionId, list);
      }
      for (const list of byWorkspace.values())
        for (let i = 0; i < list.length; i += CHANGES_CHANNELS_MAX)
          requests.push(list.slice(i, i + CHANGES_CHANNELS_MAX));
      await Promise.all(requests.map((states) => this.pullRound(states, failed, more)));
      pending = more;
    }
    return failed;
  }

  /** One feed request for channels of one workspace; each page is stored, then its checkpoint moves. */
  private async pullRound(states: PullState[], failed: Map<string, unknown>, more: string[]): Promise<void> {
    const institutionId = states[0]?.institutionId as string;
    let res: Awaited<ReturnType<typeof this.requestFeed>>;
    const askedAt = Date.now();
    try {
      res = await this.requestFeed(institutionId, states);
    } catch (error) {
      for (const s of states) failed.set(s.channelId, error);
      return;
    }
    const asked = new Set(states.map((s) => s.channelId));
    for (const id of res.notMember) failed.set(id, new ApiError(403, 'You are not a member of this channel'));
    const pages = res.data.filter((p) => asked.has(p.channelId));

    // Every page is handed to the writer at once, so they share one store write.
    const stored = this.writer.applyEach(pages.map((p) => p.data));
    await Promise.all(
      pages.map(async (page, i) => {
        try {
          await stored[i];
          await this.advance(page.channelId, page.metadata.lastSeq);
          if (page.metadata.hasMore) more.push(page.channelId);
        } catch (error) {
          failed.set(page.channelId, error);
        }
      }),
    );
    // Stars made or undone on other devices while this one was away, once the pages are stored (0082).
    const answered = pages.map((p) => p.channelId);
    try {
      await reconcileStars(this.db, answered, res.starred, res.starredComplete, askedAt);
    } catch (error) {
      for (const id of answered) if (!failed.has(id)) failed.set(id, error);
    }
  }

  private requestFeed(institutionId: string, states: readonly PullState[]) {
    return this.http.call('workspaceChanges', {
      params: { id: institutionId },
      body: {
        channels: states.map((s) => ({ channelId: s.channelId, after: s.checkpoint })),
        limit: CHANGES_PAGE_MAX,
      },
    });
  }

  /**
   * Every change up to lastSeq is in the store: only now may the checkpoint pass it, so a stop in
   * between pulls the page again (applying it twice changes nothing).
   */
  private async advance(channelId: string, lastSeq: number): Promise<void> {
    const fresh = await this.db.syncState.findOne(channelId).exec();
    // A page that brought nothing new leaves the row unwritten (a write wakes every live query on it).
    if (!fresh || fresh.checkpoint >= lastSeq) return;
    await fresh.incrementalModify((d) => ({ ...d, checkpoint: Math.max(d.checkpoint, lastSeq) }));
  }
}
