// The channel view reads a window of the newest messages, never the whole channel: it holds at least
// the first screen's worth, always the unconfirmed ones, says when older ones are stored, widens on
// request, and follows new messages live.
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import {
  type MessageWindow,
  newestRevisions,
  REACH_MAX,
  watchMessageWindow,
} from '../../src/store/message-window.ts';
import { applyServerMessage } from '../../src/store/messages.ts';
import { pendingMessage } from '../../src/store/pending-message.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

let db: LanternDatabase | null = null;
afterEach(async () => {
  await db?.remove();
  db = null;
});

/** A channel whose messages 1…count are stored and checkpointed, as the sync leaves it. */
async function channelWith(count: number, channelId = 'c1'): Promise<LanternDatabase> {
  const store = await openTestDatabase();
  db = store;
  const base = Date.parse('2026-01-01T00:00:00Z');
  const docs: MessageDoc[] = Array.from({ length: count }, (_, i) => ({
    ...makeServerMessage({
      id: `${channelId}-m${i + 1}`,
      channelId,
      seq: i + 1,
      createdSeq: i + 1,
      createdAt: new Date(base + i * 1000).toISOString(),
    }),
    status: 'confirmed',
    isStarred: false,
    base: null,
  }));
  await store.messages.bulkInsert(docs);
  await store.syncState.insert({ channelId, institutionId: 'i1', checkpoint: count });
  return store;
}

const seqs = (w: MessageWindow) => w.messages.map((m) => m.createdSeq);

describe('message window', () => {
  it('holds the newest messages of a long channel, in order, and says older ones are stored', async () => {
    const store = await channelWith(3000);
    const window = await firstValueFrom(watchMessageWindow(store, 'c1', 60));
    expect(window.messages.length).toBeGreaterThanOrEqual(60);
    expect(window.messages.length).toBeLessThan(3000);
    expect(seqs(window).at(-1)).toBe(3000);
    expect(seqs(window)).toEqual([...seqs(window)].sort((a, b) => a - b));
    // Contiguous: no message is skipped inside the window.
    const first = seqs(window)[0] ?? 0;
    expect(seqs(window)).toEqual(Array.from({ length: 3001 - first }, (_, i) => first + i));
    expect(window.hasOlderStored).toBe(true);
  });

  it('is the whole channel when the channel is short, with nothing older stored', async () => {
    const store = await channelWith(25);
    const window = await firstValueFrom(watchMessageWindow(store, 'c1', 60));
    expect(seqs(window)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(window.hasOlderStored).toBe(false);
  });

  it('grows when asked for more, down to the first message', async () => {
    const store = await channelWith(1000);
    const small = await firstValueFrom(watchMessageWindow(store, 'c1', 60));
    const wide = await firstValueFrom(watchMessageWindow(store, 'c1', 600));
    expect(wide.messages.length).toBeGreaterThan(small.messages.length);
    expect(wide.messages.length).toBeGreaterThanOrEqual(600);
    const all = await firstValueFrom(watchMessageWindow(store, 'c1', 5000));
    expect(all.messages).toHaveLength(1000);
    expect(all.hasOlderStored).toBe(false);
  });

  it('shows pending messages after the confirmed ones, and a new message live', async () => {
    const store = await channelWith(500);
    await store.messages.insert(
      pendingMessage({
        genId: '019a0000-0000-7000-8000-000000000001',
        institutionId: 'i1',
        channelId: 'c1',
        memberId: 'me',
        content: '<p>still sending</p>',
        createdAt: new Date().toISOString(),
      }),
    );
    const live = watchMessageWindow(store, 'c1', 60);
    const before = await firstValueFrom(live);
    expect(before.messages.at(-1)?.content).toBe('<p>still sending</p>');

    const arrived = firstValueFrom(live.pipe(filter((w) => w.messages.some((m) => m.id === 'late'))));
    await applyServerMessage(
      store,
      makeServerMessage({ id: 'late', channelId: 'c1', seq: 501, createdSeq: 501 }),
    );
    const after = await arrived;
    expect(after.messages.map((m) => m.id).slice(-2)).toEqual(['late', null]);
  });

  it('hands the same message object for a row that did not change, so the screen re-renders only new rows', async () => {
    const store = await channelWith(100);
    const live = watchMessageWindow(store, 'c1', 60);
    const before = await firstValueFrom(live);
    const arrived = firstValueFrom(live.pipe(filter((w) => w.messages.some((m) => m.id === 'new'))));
    await applyServerMessage(
      store,
      makeServerMessage({ id: 'new', channelId: 'c1', seq: 101, createdSeq: 101 }),
    );
    const after = await arrived;
    const earlier = new Map(before.messages.map((m) => [m.id, m]));
    for (const m of after.messages.filter((m) => m.id !== 'new')) expect(m).toBe(earlier.get(m.id));

    // An edited row is a new object with the new words; its neighbours stay the same objects.
    const edited = firstValueFrom(
      live.pipe(filter((w) => w.messages.some((m) => m.content === '<p>edited</p>'))),
    );
    await (await store.messages.findOne({ selector: { id: 'c1-m99' } }).exec())?.incrementalPatch({
      content: '<p>edited</p>',
    });
    const later = await edited;
    const byId = new Map(after.messages.map((m) => [m.id, m]));
    expect(later.messages.find((m) => m.id === 'c1-m99')).not.toBe(byId.get('c1-m99'));
    expect(later.messages.find((m) => m.id === 'c1-m98')).toBe(byId.get('c1-m98'));
  });

  it('is cut back to the newest when a catch-up pours into an open channel', async () => {
    const store = await channelWith(300);
    const live = watchMessageWindow(store, 'c1', 60);
    const seen: MessageWindow[] = [];
    const sub = live.subscribe((w) => seen.push(w));
    await firstValueFrom(live);
    // A long catch-up: 2,000 newer messages arrive and the checkpoint follows them.
    const base = Date.parse('2026-02-01T00:00:00Z');
    await store.messages.bulkInsert(
      Array.from({ length: 2000 }, (_, i) => ({
        ...makeServerMessage({
          channelId: 'c1',
          seq: 301 + i,
          createdSeq: 301 + i,
          createdAt: new Date(base + i * 1000).toISOString(),
        }),
        status: 'confirmed' as const,
        isStarred: false,
        base: null,
      })),
    );
    await (await store.syncState.findOne('c1').exec())?.incrementalPatch({ checkpoint: 2300 });
    await store.messages.insert({
      ...makeServerMessage({ id: 'newest', channelId: 'c1', seq: 2301, createdSeq: 2301 }),
      status: 'confirmed',
      isStarred: false,
      base: null,
    });
    await expect.poll(() => seen.at(-1)?.messages.at(-1)?.id, { timeout: 10_000 }).toBe('newest');
    sub.unsubscribe();
    const last = seen.at(-1);
    expect(last?.messages.length).toBeLessThan(600);
    expect(last?.hasOlderStored).toBe(true);
  });

  it('leaves out other channels and deleted messages', async () => {
    const store = await channelWith(100, 'c1');
    await store.messages.bulkInsert(
      Array.from({ length: 50 }, (_, i) => ({
        ...makeServerMessage({ id: `other-${i}`, channelId: 'c2', seq: i + 1, createdSeq: i + 1 }),
        status: 'confirmed' as const,
        isStarred: false,
        base: null,
      })),
    );
    await (await store.messages.findOne({ selector: { id: 'c1-m100' } }).exec())?.incrementalPatch({
      deletedAt: new Date().toISOString(),
    });
    const window = await firstValueFrom(watchMessageWindow(store, 'c1', 200));
    expect(window.messages.every((m) => m.channelId === 'c1')).toBe(true);
    expect(window.messages.map((m) => m.id)).not.toContain('c1-m100');
    expect(window.messages).toHaveLength(99);
  });

  it('reaches down to a linked message and holds every row from it to the newest', async () => {
    const store = await channelWith(3000);
    const window = await firstValueFrom(watchMessageWindow(store, 'c1', 60, 2500));
    expect(window.reach).toBe('held');
    expect(seqs(window)[0]).toBeLessThanOrEqual(2500);
    expect(seqs(window)).toContain(2500);
    expect(seqs(window).at(-1)).toBe(3000);
    expect(window.hasOlderStored).toBe(true);
    // Without a place to reach, the same channel opens on its newest rows only.
    const plain = await firstValueFrom(watchMessageWindow(store, 'c1', 60));
    expect(plain.reach).toBeUndefined();
    expect(seqs(plain)).not.toContain(2500);
  });

  it('does not reach down over more than REACH_MAX rows, and says so', async () => {
    const store = await channelWith(REACH_MAX + 500);
    const window = await firstValueFrom(watchMessageWindow(store, 'c1', 60, 100));
    expect(window.reach).toBe('tooFar');
    expect(seqs(window)).not.toContain(100);
    expect(window.messages.length).toBeLessThan(1000);
    // The last one within reach is held.
    const edge = REACH_MAX + 500 - REACH_MAX + 1;
    const within = await firstValueFrom(watchMessageWindow(store, 'c1', 60, edge));
    expect(within.reach).toBe('held');
    expect(seqs(within)[0]).toBe(edge);
  });
});

describe('two revisions of one message in the two queries', () => {
  it('keep only the newest, so a message confirmed elsewhere is not shown twice', () => {
    const pending = { primary: 'g1', revision: '1-a', status: 'pending' };
    const confirmed = { primary: 'g1', revision: '2-b', status: 'confirmed' };
    const other = { primary: 'g2', revision: '1-c', status: 'confirmed' };
    expect(newestRevisions([confirmed, other, pending])).toEqual([confirmed, other]);
    expect(newestRevisions([other, pending, confirmed])).toEqual([other, confirmed]);
    expect(newestRevisions([other, pending])).toEqual([other, pending]);
  });
});
