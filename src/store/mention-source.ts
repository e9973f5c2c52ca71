// The composer's '@' suggestions as a live query over the store (works offline): the spec §5 rule of
// schemas/mention-suggestions.ts fed with the workspace's members (in the channel or not, online or
// not), its agents (members of kind 'agent', offered as type agent so the mention starts a run), the
// channel's roles, the workspace's groups and whether the caller may tag here.
import type { RxCollection } from 'rxdb';
import { combineLatest, map, type Observable } from 'rxjs';
import type { InstitutionDoc, MemberDoc, RecordDoc } from '../../schemas/collections.ts';
import { type MentionSuggestion, mentionSuggestions } from '../../schemas/mention-suggestions.ts';
import type { ChannelMember, ChannelRole, Group } from '../../schemas/protocol/index.ts';
import { type ChannelAccessCollections, watchChannelAccess } from './channel-access-live.ts';

export interface MentionSourceCollections extends ChannelAccessCollections {
  members: RxCollection<MemberDoc>;
  institutions: RxCollection<InstitutionDoc>;
}

export function watchMentionSuggestions(
  db: MentionSourceCollections,
  institutionId: string,
  channelId: string,
  query: string,
): Observable<MentionSuggestion[]> {
  const rows = <T>(kind: RecordDoc['kind'], filter: { scope: string } | { institutionId: string }) =>
    db.records
      .find({ selector: { kind, ...filter } })
      .$.pipe(map((docs) => docs.map((d) => d.toJSON().data as T)));
  return combineLatest([
    watchChannelAccess(db, channelId),
    db.members.find({ selector: { institutionId } }).$,
    db.institutions.findOne(institutionId).$,
    rows<ChannelMember>('channelMember', { scope: channelId }),
    rows<ChannelRole>('channelRole', { scope: channelId }),
    rows<Group>('group', { institutionId }),
  ]).pipe(
    map(([access, members, institution, memberships, roles, groups]) => {
      const inChannel = new Set(memberships.map((m) => m.memberId));
      const people = members.filter((m) => m.kind !== 'agent');
      const agents = members.filter((m) => m.kind === 'agent');
      return mentionSuggestions({
        query,
        permissions: access,
        members: people.map((m) => ({
          id: m.id,
          name: m.name,
          profileImage: m.profileImage ?? null,
          isOnline: m.user.isOnline,
          isInChannel: inChannel.has(m.id),
        })),
        roles,
        agents: agents.map((a) => ({ id: a.id, name: a.name, profileImage: a.profileImage ?? null })),
        groups,
        selfMemberId: institution?.member.id,
      });
    }),
  );
}
