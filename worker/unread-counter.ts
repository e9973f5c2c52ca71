// Raising unread counts for messages that reach the store, live or pulled (spec §4: an incoming message
// raises its channel's count unless the channel is open or the message is one's own). The membership says
// up to which seq the server's count already goes (`unreadThrough`, decision 0047): only messages above it
// are added, so a message that races its own count is never counted twice, whichever arrives first.
import type { Message } from '../schemas/protocol/index.ts';
import { raisesUnread } from '../src/store/unread.ts';
import type { SyncDatabase } from './sync-database.ts';

export interface ArrivedMessages {
  /** Messages new to the store, one channel or several. */
  messages: readonly Message[];
  openChannelIds: ReadonlySet<string>;
  /**
   * How they came. A live message with no known count position is counted (a count fetched before it
   * cannot hold it); a pulled one only above a known position (a first pull brings whole histories).
   */
  via: 'live' | 'pull';
}

/** Raises each channel's count by its arrived messages that are unread; resolves when stored. */
export async function raiseUnread(db: SyncDatabase, arrived: ArrivedMessages): Promise<void> {
  const ownIn = new Map<string, string | null>();
  const byChannel = new Map<string, Message[]>();
  for (const m of arrived.messages) {
    if (!ownIn.has(m.institutionId)) {
      const institution = await db.institutions.findOne(m.institutionId).exec();
      ownIn.set(m.institutionId, institution?.member.id ?? null);
    }
    const unread = raisesUnread({
      channelId: m.channelId,
      authorMemberId: m.memberId,
      ownMemberId: ownIn.get(m.institutionId) ?? null,
      openChannelIds: arrived.openChannelIds,
      isNew: true,
    });
    if (unread && m.deletedAt === null)
      byChannel.set(m.channelId, [...(byChannel.get(m.channelId) ?? []), m]);
  }
  for (const [channelId, messages] of byChannel) {
    const memberships = await db.channelMembers.find({ selector: { channelId } }).exec();
    for (const membership of memberships)
      await membership.incrementalModify((d) => {
        const through = d.unreadThrough;
        if (through === undefined && arrived.via === 'pull') return d;
        const added = messages.filter((m) => through === undefined || m.createdSeq > through).length;
        return added ? { ...d, unreadCount: d.unreadCount + added } : d;
      });
  }
}
