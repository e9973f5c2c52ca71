// What the composer and channel menus may offer, decided on the device from stored roles (spec §6),
// with the sentence shown when posting is not possible; also with no server at all.
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel, ChannelMember, ChannelRole } from '../../schemas/protocol/index.ts';
import {
  BLOCKED_BY_OTHER_REASON,
  channelAccess,
  NO_POST_PERMISSION_REASON,
  NOT_MEMBER_REASON,
  YOU_BLOCKED_REASON,
} from '../../src/store/channel-access.ts';
import { watchChannelAccess } from '../../src/store/channel-access-live.ts';
import { replaceJoinedChannels } from '../../src/store/channels.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { putRecord } from '../../src/store/records.ts';
import { openTestDatabase } from './factories.ts';

function role(overrides: Partial<ChannelRole> = {}): ChannelRole {
  return {
    id: 'r-default',
    channelId: 'c1',
    name: 'Everyone',
    isDefault: false,
    isOwnershipRole: false,
    canPinMessage: false,
    canPost: false,
    canTag: false,
    canAddMembers: false,
    canDeleteMessage: false,
    ...overrides,
  };
}

const readOnlyDefault = role({ id: 'r-default', isDefault: true, name: 'Everyone' });
const poster = role({ id: 'r-poster', name: 'Speakers', canPost: true });
const owner = role({ id: 'r-owner', name: 'Owner', isOwnershipRole: true });

function channel(overrides: Partial<Channel> = {}): Channel {
  return {
    id: 'c1',
    institutionId: 'i1',
    name: 'announcements',
    type: 'private',
    isDefault: false,
    defaultRole: readOnlyDefault,
    directMessageMembers: null,
    createdBy: 'm-owner',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeq: 0,
    lastSentMessage: null,
    ...overrides,
  };
}

function membership(overrides: Partial<ChannelMember> = {}): ChannelMember {
  return {
    id: 'cm-me',
    channelId: 'c1',
    memberId: 'm-me',
    unreadCount: 0,
    lastReadMessage: null,
    roles: [],
    joinedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const roles = [readOnlyDefault, poster, owner];

describe('channel access from stored roles', () => {
  it('closes the composer with a reason when neither the default role nor my roles allow posting', () => {
    const access = channelAccess({ channel: channel(), membership: membership(), roles });
    expect(access.canPost).toBe(false);
    expect(access.cannotPostReason).toBe(NO_POST_PERMISSION_REASON);
  });

  it('lets me post once one of my roles allows it (OR over roles), without making me an owner', () => {
    const access = channelAccess({
      channel: channel(),
      membership: membership({ roles: ['r-poster'] }),
      roles,
    });
    expect(access.canPost).toBe(true);
    expect(access.cannotPostReason).toBeNull();
    expect(access.canManage).toBe(false);
    expect(access.isOwner).toBe(false);
  });

  it('gives an ownership role everything, including managing the channel', () => {
    const access = channelAccess({
      channel: channel(),
      membership: membership({ roles: ['r-owner'] }),
      roles,
    });
    expect(access).toMatchObject({
      canPost: true,
      canPinMessage: true,
      canTag: true,
      canAddMembers: true,
      canDeleteMessage: true,
      canManage: true,
      isOwner: true,
    });
  });

  it('prefers the stored copy of the default role over the one embedded in the channel row', () => {
    const edited = { ...readOnlyDefault, canPost: true };
    const access = channelAccess({ channel: channel(), membership: membership(), roles: [edited] });
    expect(access.canPost).toBe(true);
  });

  it('tells a non-member to join', () => {
    const access = channelAccess({ channel: channel(), membership: null, roles });
    expect(access.isMember).toBe(false);
    expect(access.cannotPostReason).toBe(NOT_MEMBER_REASON);
  });

  it('lets both people of a direct message post and pin but never tag or delete, whatever the roles', () => {
    const dm = channel({ type: 'direct_message', defaultRole: null });
    const access = channelAccess({ channel: dm, membership: membership(), roles: [] });
    expect(access).toMatchObject({
      canPost: true,
      canPinMessage: true,
      canTag: false,
      canDeleteMessage: false,
    });
  });

  it('says who blocked whom in a direct message', () => {
    const dm = channel({ type: 'direct_message', defaultRole: null });
    const mine = channelAccess({ channel: dm, membership: membership({ blocked: true }), roles: [] });
    expect(mine.canPost).toBe(false);
    expect(mine.cannotPostReason).toBe(YOU_BLOCKED_REASON);
    const theirs = channelAccess({
      channel: dm,
      membership: membership(),
      roles: [],
      otherMembership: { blocked: true },
    });
    expect(theirs.canPost).toBe(false);
    expect(theirs.cannotPostReason).toBe(BLOCKED_BY_OTHER_REASON);
  });
});

describe('channel access over the store (no server involved)', () => {
  let db: LanternDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('evaluates the roles stored with the joined channels and follows a role change live', async () => {
    db = await openTestDatabase();
    await replaceJoinedChannels(db, 'i1', {
      channels: [channel()],
      channelMembers: [membership({ roles: ['r-poster'] })],
      channelRoles: [readOnlyDefault, { ...poster, canPost: false }],
    });
    const first = await firstValueFrom(watchChannelAccess(db, 'c1'));
    expect(first.canPost).toBe(false);
    expect(first.cannotPostReason).toBe(NO_POST_PERMISSION_REASON);

    const allowed = firstValueFrom(watchChannelAccess(db, 'c1').pipe(filter((a) => a.canPost)));
    await putRecord(db, 'channelRole', poster, { scope: 'c1', institutionId: 'i1' });
    expect((await allowed).cannotPostReason).toBeNull();
  });

  it('drops roles a newer joined list no longer has, so a removed permission is not kept', async () => {
    db = await openTestDatabase();
    const joined = { channels: [channel()], channelMembers: [membership({ roles: ['r-poster'] })] };
    await replaceJoinedChannels(db, 'i1', { ...joined, channelRoles: [readOnlyDefault, poster] });
    expect((await firstValueFrom(watchChannelAccess(db, 'c1'))).canPost).toBe(true);
    await replaceJoinedChannels(db, 'i1', { ...joined, channelRoles: [readOnlyDefault] });
    expect((await firstValueFrom(watchChannelAccess(db, 'c1'))).canPost).toBe(false);
  });
});
