// A message arriving in a channel moves that channel's lastSentMessage in the store. What the sidebar and
// the channel screen read of the channels must not move with it: the worker then has no change to send the
// tab, and the sidebar (its sections, menus and links) and the screen around the list do not redraw for
// every message. Their reads still change when something they show changes.
import { firstValueFrom, skip } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelDoc, ChannelMemberDoc } from '../../schemas/collections.ts';
import { joinedSummary, sameJoinedSummary } from '../../src/data/channels.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { advanceLastSent } from '../../src/store/last-sent.ts';
import { watchSidebar } from '../../src/store/sidebar.ts';
import { describeChange } from '../../worker/store-changes.ts';
import { makeChannel, makeServerMessage, openTestDatabase } from './factories.ts';

let db: LanternDatabase | null = null;
afterEach(async () => {
  await db?.remove();
  db = null;
});

const channel = (id: string, overrides: Partial<ChannelDoc> = {}) =>
  makeChannel(id, { description: null, ...overrides });

const membership = (channelId: string, unreadCount = 0): ChannelMemberDoc => ({
  id: `m-${channelId}`,
  channelId,
  memberId: 'me',
  unreadCount,
  lastReadMessage: null,
  roles: [],
  joinedAt: '2026-01-01T00:00:00.000Z',
});

async function workspace(): Promise<LanternDatabase> {
  const store = await openTestDatabase();
  db = store;
  await store.channels.bulkInsert([
    channel('general'),
    channel('random'),
    channel('dm1', { type: 'direct_message', directMessageMembers: ['me', 'ann'] }),
  ]);
  await store.channelMembers.bulkInsert([membership('general'), membership('random'), membership('dm1')]);
  return store;
}

const arrival = (channelId: string, createdAt: string) =>
  makeServerMessage({ id: `msg-${createdAt}`, channelId, createdAt });

describe("the sidebar's read of the channels", () => {
  it('does not change when a message arrives in a channel, and does when the channel is renamed', async () => {
    const store = await workspace();
    const before = await firstValueFrom(watchSidebar(store, 'i1'));
    expect(before.sections.flatMap((s) => s.channels.map((c) => c.id))).toEqual(['general', 'random']);

    const next = firstValueFrom(watchSidebar(store, 'i1').pipe(skip(1)));
    await advanceLastSent(store.channels, [arrival('general', '2026-01-02T00:00:00.000Z')]);
    expect((await store.channels.findOne('general').exec())?.lastSentMessage).not.toBeNull();
    // The worker sends a read's change only: none here.
    expect(describeChange(before, await firstValueFrom(watchSidebar(store, 'i1')))).toBeNull();

    await store.channels.findOne('random').patch({ name: 'watercooler' });
    await next;
    const renamed = await firstValueFrom(watchSidebar(store, 'i1'));
    expect(describeChange(before, renamed)).not.toBeNull();
    expect(renamed.sections[0]?.channels.map((c) => c.name)).toEqual(['general', 'watercooler']);
  });
});

describe("the sidebar's summary of the joined list", () => {
  const joined = (channels: ChannelDoc[], members: ChannelMemberDoc[]) => ({
    channels,
    channelMembers: members,
  });
  const base = joined(
    [channel('general'), channel('dm1', { type: 'direct_message', directMessageMembers: ['me', 'ann'] })],
    [membership('general'), membership('dm1')],
  );

  it('is the same when only a channel’s latest message moves', () => {
    const moved = joined(
      [
        {
          ...channel('general'),
          lastSeq: 7,
          lastSentMessage: { id: 'x', createdAt: '2026-01-03T00:00:00.000Z' },
        },
        base.channels[1] as ChannelDoc,
      ],
      base.channelMembers,
    );
    expect(sameJoinedSummary(joinedSummary(base, 'me'), joinedSummary(moved, 'me'))).toBe(true);
  });

  it('differs when an unread count changes, or a direct message’s latest message moves (its order)', () => {
    const unread = joined(base.channels, [membership('general', 2), membership('dm1')]);
    expect(sameJoinedSummary(joinedSummary(base, 'me'), joinedSummary(unread, 'me'))).toBe(false);
    const dmMoved = joined(
      [
        base.channels[0] as ChannelDoc,
        {
          ...(base.channels[1] as ChannelDoc),
          lastSentMessage: { id: 'y', createdAt: '2026-01-03T00:00:00.000Z' },
        },
      ],
      base.channelMembers,
    );
    const summary = joinedSummary(dmMoved, 'me');
    expect(sameJoinedSummary(joinedSummary(base, 'me'), summary)).toBe(false);
    expect(summary?.directs[0]?.latest).toBe('2026-01-03T00:00:00.000Z');
    expect(summary?.unread.get('general')).toBe(0);
    expect(summary?.hasChannels).toBe(true);
  });
});
