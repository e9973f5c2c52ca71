// Live: socket events (newMessage, newEditMessage, newDeleteMessage) applied to the store one at a
// time, in arrival order. A gap in seq asks for a pull; a new message may raise the unread count.
import type { Message } from '../schemas/protocol/index.ts';
import { raisesUnread } from '../src/store/unread.ts';
import { applyChannelMessage } from './apply.ts';
import type { SyncDatabase } from './sync-database.ts';

export interface LiveDeps {
  db: SyncDatabase;
  pull(channelId: string): Promise<void>;
  openChannelIds(): ReadonlySet<string>;
  /** Someone else's new message arrived in a channel open on screen: it is read (the server is told). */
  seen?(channelId: string): void;
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
    if (kind !== 'new' || !db.channelMembers) return;
    const institution = db.institutions ? await db.institutions.findOne(message.institutionId).exec() : null;
    const raise = raisesUnread({
      channelId: message.channelId,
      authorMemberId: message.memberId,
      ownMemberId: institution?.member.id ?? null,
      openChannelIds: this.deps.openChannelIds(),
      isNew,
    });
    if (!raise) {
      const fromSomeoneElse = isNew && message.memberId !== institution?.member.id;
      if (fromSomeoneElse && this.deps.openChannelIds().has(message.channelId))
        this.deps.seen?.(message.channelId);
      return;
    }
    const memberships = await db.channelMembers.find({ selector: { channelId: message.channelId } }).exec();
    for (const m of memberships) await m.incrementalModify((d) => ({ ...d, unreadCount: d.unreadCount + 1 }));
  }
}
