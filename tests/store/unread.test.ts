// Spec §4 unread rule, and the count kept right when the server's list and live messages race.
import { afterEach, describe, expect, it } from 'vitest';
import { replaceJoinedChannels } from '../../src/store/channels.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { MessageBatcher } from '../../src/store/message-batcher.ts';
import { raisesUnread } from '../../src/store/unread.ts';
import { LiveApplier } from '../../worker/live.ts';
import { raiseUnread } from '../../worker/unread-counter.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('waited 5 s');
}

const facts = (over: Partial<Parameters<typeof raisesUnread>[0]> = {}) => ({
  channelId: 'c1',
  authorMemberId: 'other',
  ownMemberId: 'me',
  openChannelIds: new Set<string>(),
  isNew: true,
  ...over,
});

describe('unread counts', () => {
  it('rise for someone else’s new message in a channel that is not open', () => {
    expect(raisesUnread(facts())).toBe(true);
  });
  it('do not rise in the open channel', () => {
    expect(raisesUnread(facts({ openChannelIds: new Set(['c1']) }))).toBe(false);
  });
  it('do not rise for one’s own message', () => {
    expect(raisesUnread(facts({ authorMemberId: 'me' }))).toBe(false);
  });
  it('do not rise twice for a message the store already had', () => {
    expect(raisesUnread(facts({ isNew: false }))).toBe(false);
  });
});

// Issue 15 item 1: the joined list's count and the live messages racing it. The server says up to which
// seq it counted (`unreadThrough`); the store neither adds a message twice nor drops one, whichever of the
// two reaches it first. (Seen in CI: two posts showed as 4 when the list arrived before their live events.)
describe('unread counts racing live messages', () => {
  let db: LanternDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  const joined = (unreadCount: number, unreadThrough: number) => ({
    channels: [
      {
        id: 'c1',
        institutionId: 'i1',
        name: 'tides',
        type: 'public' as const,
        isDefault: false,
        defaultRole: null,
        directMessageMembers: null,
        createdBy: 'm-kai',
        createdAt: '2026-01-01T00:00:00.000Z',
        lastSeq: unreadThrough,
        lastSentMessage: null,
      },
    ],
    channelMembers: [
      {
        id: 'cm-me',
        channelId: 'c1',
        memberId: 'm-me',
        unreadCount,
        unreadThrough,
        lastReadMessage: null,
        roles: [],
        joinedAt: '2026-01-01T00:00:00.000Z',
      },
    ],
  });

  async function setUp() {
    db = await openTestDatabase();
    const live = new LiveApplier({ db, pull: async () => {}, openChannelIds: () => new Set() });
    const count = async () => (await db?.channelMembers.findOne('cm-me').exec())?.unreadCount;
    return { db, live, count };
  }

  const posts = () => [
    makeServerMessage({ memberId: 'm-kai', seq: 11, createdSeq: 11 }),
    makeServerMessage({ memberId: 'm-kai', seq: 12, createdSeq: 12 }),
  ];

  it('counts two posts as 2 when the list that holds them arrives before their live events', async () => {
    const { db, live, count } = await setUp();
    await replaceJoinedChannels(db, 'i1', joined(2, 12));
    for (const m of posts()) await live.receive(m, 'new');
    expect(await count()).toBe(2);
  });

  it('counts two posts as 2 when their live events arrive before the list that holds them', async () => {
    const { db, live, count } = await setUp();
    await replaceJoinedChannels(db, 'i1', joined(0, 10));
    for (const m of posts()) await live.receive(m, 'new');
    expect(await count()).toBe(2);
    await replaceJoinedChannels(db, 'i1', joined(2, 12));
    expect(await count()).toBe(2);
  });

  it('keeps a live post the list was counted before', async () => {
    const { db, live, count } = await setUp();
    const [first, second] = posts();
    if (!first || !second) throw new Error('two posts');
    await replaceJoinedChannels(db, 'i1', joined(0, 10));
    await live.receive(first, 'new');
    await live.receive(second, 'new');
    // A list counted between the two posts lands after both: it holds the first, the store adds the second.
    await replaceJoinedChannels(db, 'i1', joined(1, 11));
    expect(await count()).toBe(2);
  });

  it('keeps a live post counted while a list counted before it is being written', async () => {
    const { db, live, count } = await setUp();
    await replaceJoinedChannels(db, 'i1', joined(0, 10));
    // A slow device: the list's look for messages above its count answers only once the gate opens.
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let looked = false;
    const messages = db.messages;
    const slowMessages = {
      find: (query: Parameters<typeof messages.find>[0]) => ({
        exec: async () => {
          const found = await messages.find(query).exec();
          looked = true;
          await gate;
          return found;
        },
      }),
    } as unknown as typeof messages;
    const list = replaceJoinedChannels(
      { ...db.collections, messages: slowMessages } as typeof db,
      'i1',
      joined(0, 10),
    );
    await waitFor(() => looked);
    // The post arrives live after the list looked, and is stored and counted before the list writes.
    const [post] = posts();
    if (!post) throw new Error('a post');
    const arrived = live.receive(post, 'new');
    await waitFor(async () => (await db.messages.findOne(post.genId).exec()) !== null);
    await new Promise((r) => setTimeout(r, 50));
    open();
    await Promise.all([list, arrived]);
    expect(await count()).toBe(1);
  });

  it('counts what a catch-up brings above the count, and a whole history below it not at all', async () => {
    const { db, live, count } = await setUp();
    const writer = new MessageBatcher(db, (added) =>
      raiseUnread(db, { messages: added, openChannelIds: new Set(), via: 'pull' }),
    );
    await replaceJoinedChannels(db, 'i1', joined(2, 12));
    const history = [3, 7, 11, 12, 13, 14].map((n) =>
      makeServerMessage({ memberId: 'm-kai', seq: n, createdSeq: n }),
    );
    await writer.apply(history);
    expect(await count()).toBe(4);
    // The same message live after the pull (a reconnect's catch-up overlapping the room) is not new.
    await live.receive(history[5] as (typeof history)[number], 'new');
    expect(await count()).toBe(4);
  });

  it('shows no count for the open channel, and counts from there once it is closed', async () => {
    const { db, live, count } = await setUp();
    await replaceJoinedChannels(db, 'i1', joined(2, 12), { openChannelIds: new Set(['c1']) });
    expect(await count()).toBe(0);
    await live.receive(makeServerMessage({ memberId: 'm-kai', seq: 13, createdSeq: 13 }), 'new');
    expect(await count()).toBe(1);
  });
});
