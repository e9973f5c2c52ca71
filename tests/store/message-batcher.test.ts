// The writer of pulled pages (src/store/message-batcher.ts): pages share writes, and an open channel's
// newest page (decision 0061) goes ahead of the history pages waiting, since those are not on screen.
import { describe, expect, it } from 'vitest';
import { MessageBatcher } from '../../src/store/message-batcher.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

describe("the store's writer", () => {
  it('writes the newest page on its own, ahead of history pages already waiting, after the write in flight', async () => {
    const db = await openTestDatabase(['messages', 'outbox']);
    try {
      const page = (from: number) =>
        Array.from({ length: 50 }, (_, i) => makeServerMessage({ channelId: 'c1', createdSeq: from + i }));
      const order: number[] = [];
      // Which messages each write stored: the store is told once per write.
      const writes: number[][] = [];
      const watch = db.messages.insert$.subscribe((e) => order.push(e.documentData.createdSeq));
      const writer = new MessageBatcher(db, async (added) => {
        writes.push(added.map((m) => m.createdSeq));
      });
      const inFlight = writer.apply(page(1));
      const waiting = writer.apply(page(51));
      const newest = writer.applyFirst(page(951));
      await Promise.all([inFlight, waiting, newest]);
      watch.unsubscribe();
      const firstOf = (seq: number) => order.indexOf(seq);
      expect(firstOf(1)).toBe(0);
      expect(firstOf(951)).toBeLessThan(firstOf(51));
      expect(order).toHaveLength(150);
      expect(writes.map((w) => w.length)).toEqual([50, 50, 50]);
      expect(writes[1]?.[0]).toBe(951);
    } finally {
      await db.close();
    }
  });
});
