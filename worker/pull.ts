import { CHANGES_PAGE_MAX } from '../schemas/protocol/index.ts';
import type { Http } from '../src/store/http.ts';
import { MessageBatcher } from '../src/store/message-batcher.ts';
import type { SyncDatabase } from './sync-database.ts';

export class Puller {
  private readonly running = new Map<string, Promise<void>>();
  private readonly rerun = new Set<string>();
  private readonly db: SyncDatabase;
  private readonly http: Http;
  /** Pages of channels pulled at once share their writes. */
  private readonly writer: MessageBatcher;

  constructor(db: SyncDatabase, http: Http) {
    this.db = db;
    this.http = http;
    this.writer = new MessageBatcher(db);
  }

  /** Pulls a channel; resolves after a pull that started after this call has finished. */
  pull(channelId: string): Promise<void> {
    const current = this.running.get(channelId);
    if (current) {
      this.rerun.add(channelId);
      return current;
    }
    const run = (async () => {
      try {
        do {
          this.rerun.delete(channelId);
          await this.pullOnce(channelId);
        } while (this.rerun.has(channelId));
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
      // Every change up to lastSeq is now in the store: only now may the checkpoint pass it, so a
      // stop in between pulls the page again (applying it twice changes nothing).
      const fresh = await this.db.syncState.findOne(channelId).exec();
      await fresh?.incrementalModify((d) => ({
        ...d,
        checkpoint: Math.max(d.checkpoint, res.metadata.lastSeq),
      }));
      if (!res.metadata.hasMore) return;
    }
  }
}
