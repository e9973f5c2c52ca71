// Live: socket events (newMessage, newEditMessage, newDeleteMessage) applied to the store one at a
// time, in arrival order. A gap in seq asks for a pull; a new message may raise the unread count.
import type { MessageDoc } from '../schemas/collections.ts';
import type { Message } from '../schemas/protocol/index.ts';
import { mergeServerMessage } from '../src/store/message-merge.ts';
import { applyChannelMessage } from './apply.ts';
import type { SyncDatabase } from './sync-database.ts';
import { raiseUnread } from './unread-counter.ts';

export interface LiveDeps {
  db: SyncDatabase;
  pull(channelId: string): Promise<void>;
  openChannelIds(): ReadonlySet<string>;
  /** Someone else's new message arrived in a channel open on screen: it is read (the server is told). */
  seen?(channelId: string): void;
  /** A new message for a channel open on screen, told before the store writes it (tabs show it at once). */
  arrived?(message: MessageDoc): void;
  log?: (message: string, error?: unknown) => void;
}

export class LiveApplier {
  private queue: Promise<void> = Promise.resolve();
  private readonly deps: LiveDeps;

  constructor(deps: LiveDeps) {
    this.deps = deps;
  }

  /** Queues one event; resolves when it has been applied. */
  receive(message: Message, kind: 'new' | 'edit' | 'delete'): Promise<void> {
    // The store's write and the tab's live query take a few IndexedDB round trips on a phone; the open
    // channel need not wait for them to show a new message (the stored row replaces this copy).
    if (kind === 'new' && this.deps.arrived && this.deps.openChannelIds().has(message.channelId)) {
      const shown = mergeServerMessage(null, message);
      if (shown && shown.deletedAt === null) this.deps.arrived(shown);
    }
    this.queue = this.queue
      .then(() => this.apply(message, kind))
      .catch((error) => this.deps.log?.('Could not apply a live message', error));
    return this.queue;
  }

  /** Resolves once everything received so far is applied. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async apply(message: Message, kind: 'new' | 'edit' | 'delete'): Promise<void> {
    const { db } = this.deps;
    const { isNew, gap } = await applyChannelMessage(db, message, { isLive: true });
    if (gap)
      void this.deps.pull(message.channelId).catch((e) => this.deps.log?.('Pull after a gap failed', e));
    if (kind !== 'new' || !isNew) return;
    const openChannelIds = this.deps.openChannelIds();
    if (openChannelIds.has(message.channelId)) {
      const institution = await db.institutions.findOne(message.institutionId).exec();
      if (message.memberId !== institution?.member.id) this.deps.seen?.(message.channelId);
      return;
    }
    await raiseUnread(db, { messages: [message], openChannelIds, via: 'live' });
  }
}
