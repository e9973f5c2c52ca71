// The composer's '@' list from what the store holds: members (in the channel first), agents (members of
// kind 'agent', offered as type agent), non-default roles, groups, @everyone and @here, and nothing at all
// for someone whose roles do not allow tagging.
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelRole, Member } from '../../schemas/protocol/index.ts';
import { replaceJoinedChannels } from '../../src/store/channels.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { watchMentionSuggestions } from '../../src/store/mention-source.ts';
import { putRecord } from '../../src/store/records.ts';
import { openTestDatabase } from './factories.ts';

function member(id: string, name: string, isOnline = false, kind: Member['kind'] = 'user'): Member {
  return {
    id,
    institutionId: 'i1',
    role: 'member',
    name,
    email: `${id}@example.com`,
    profileImage: null,
    user: { id: `u-${id}`, isOnline },
    kind,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

function role(id: string, name: string, flags: Partial<ChannelRole> = {}): ChannelRole {
  return {
    id,
    channelId: 'c1',
    name,
    isDefault: false,
    isOwnershipRole: false,
    canPinMessage: false,
    canPost: true,
    canTag: false,
    canAddMembers: false,
    canDeleteMessage: false,
    ...flags,
  };
}

const everyone = role('r-default', 'Everyone', { isDefault: true });
const taggers = role('r-tag', 'Taggers', { canTag: true });
const designers = role('r-design', 'Designers');

let db: LanternDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function world(myRoles: string[]) {
  db = await openTestDatabase();
  const me = member('m-me', 'Me Myself');
  await db.institutions.insert({
    id: 'i1',
    name: 'Acme',
    createdAt: '2026-01-01',
    linkPreviews: true,
    member: me,
  });
  await db.members.bulkInsert([
    me,
    member('m-dana', 'Dana', true),
    member('m-dave', 'Dave'),
    member('m-helper', 'Handbook Helper', false, 'agent'),
  ]);
  await replaceJoinedChannels(db, 'i1', {
    channels: [
      {
        id: 'c1',
        institutionId: 'i1',
        name: 'design',
        type: 'public',
        isDefault: false,
        defaultRole: everyone,
        directMessageMembers: null,
        createdBy: null,
        createdAt: '2026-01-01',
        lastSeq: 0,
        lastSentMessage: null,
      },
    ],
    channelMembers: [
      {
        id: 'cm-me',
        channelId: 'c1',
        memberId: 'm-me',
        unreadCount: 0,
        lastReadMessage: null,
        roles: myRoles,
        joinedAt: '2026-01-01',
      },
    ],
    channelRoles: [everyone, taggers, designers],
  });
  // Dave is in the channel, Dana is not.
  await putRecord(
    db,
    'channelMember',
    {
      id: 'cm-dave',
      channelId: 'c1',
      memberId: 'm-dave',
      unreadCount: 0,
      lastReadMessage: null,
      roles: [],
      joinedAt: '2026-01-01',
    },
    { scope: 'c1', institutionId: 'i1' },
  );
  await putRecord(
    db,
    'group',
    {
      id: 'g-devs',
      institutionId: 'i1',
      name: 'Developers',
      createdBy: null,
      memberIds: [],
      createdAt: '2026-01-01',
    },
    { scope: 'i1', institutionId: 'i1' },
  );
  return db;
}

describe('mention suggestions over the store', () => {
  it('offers people in the channel before others, non-default roles and groups, never myself', async () => {
    const store = await world(['r-tag']);
    const da = await firstValueFrom(watchMentionSuggestions(store, 'i1', 'c1', 'da'));
    expect(da.map((s) => [s.type, s.name, s.isInChannel])).toEqual([
      ['member', 'Dave', true],
      ['member', 'Dana', false],
    ]);
    const all = await firstValueFrom(watchMentionSuggestions(store, 'i1', 'c1', ''));
    const names = all.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['everyone', 'here', 'Designers', 'Taggers', 'Developers']));
    expect(names).not.toContain('Everyone');
    expect(names).not.toContain('Me Myself');
  });

  it('offers an agent member as type agent (its mention starts a run), never as a person', async () => {
    const store = await world(['r-tag']);
    const found = await firstValueFrom(watchMentionSuggestions(store, 'i1', 'c1', 'hand'));
    expect(found.map((s) => [s.type, s.id, s.name])).toEqual([['agent', 'm-helper', 'Handbook Helper']]);
    const all = await firstValueFrom(watchMentionSuggestions(store, 'i1', 'c1', ''));
    expect(all.filter((s) => s.id === 'm-helper').map((s) => s.type)).toEqual(['agent']);
    expect(all.filter((s) => s.type === 'member').map((s) => s.name)).not.toContain('Handbook Helper');
  });

  it('offers nothing when my roles do not allow tagging', async () => {
    const store = await world([]);
    expect(await firstValueFrom(watchMentionSuggestions(store, 'i1', 'c1', ''))).toEqual([]);
  });
});
