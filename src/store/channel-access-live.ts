// channelAccess (src/store/channel-access.ts) over the store, live: what the worker's store read of a
// channel's permissions runs (worker/store-reads.ts). Apart from the rule so the tab's screens can name
// the rule's sentences without the store's code.
import type { RxCollection } from 'rxdb';
import { combineLatest, map, type Observable } from 'rxjs';
import type { ChannelDoc, ChannelMemberDoc, RecordDoc } from '../../schemas/collections.ts';
import type { ChannelRole } from '../../schemas/protocol/index.ts';
import { type ChannelAccess, channelAccess } from './channel-access.ts';

export interface ChannelAccessCollections {
  channels: RxCollection<ChannelDoc>;
  channelMembers: RxCollection<ChannelMemberDoc>;
  records: RxCollection<RecordDoc>;
}

/**
 * channelAccess over the store, live: the channel row, the caller's membership, the stored roles and,
 * for a direct message, the other person's membership (when fetched). No network involved.
 */
export function watchChannelAccess(
  db: ChannelAccessCollections,
  channelId: string,
): Observable<ChannelAccess> {
  const rows = <K extends 'channelRole' | 'channelMember'>(kind: K) =>
    db.records
      .find({ selector: { kind, scope: channelId } })
      .$.pipe(map((docs) => docs.map((d) => (d.toJSON() as RecordDoc<K>).data)));
  return combineLatest([
    db.channels.findOne(channelId).$,
    db.channelMembers.find({ selector: { channelId } }).$,
    rows('channelRole'),
    rows('channelMember'),
  ]).pipe(
    map(([channel, mine, roles, others]) => {
      if (!channel)
        return channelAccess({ channel: { type: 'public', defaultRole: null }, membership: null, roles: [] });
      const membership = mine[0] ? (mine[0].toJSON() as ChannelMemberDoc) : null;
      const otherMembership =
        channel.type === 'direct_message' && membership
          ? ((others as ChannelMemberDoc[]).find((m) => m.memberId !== membership.memberId) ?? null)
          : null;
      return channelAccess({
        channel: channel.toJSON() as ChannelDoc,
        membership,
        roles: roles as ChannelRole[],
        otherMembership,
      });
    }),
  );
}
