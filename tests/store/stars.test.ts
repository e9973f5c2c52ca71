// Decision 0082: a catch-up's list of the person's stars sets and clears this device's, and never undoes
// a star this device heard of after the list was asked for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LanternDatabase } from '../../src/store/database.ts';
import { applyServerMessage } from '../../src/store/messages.ts';
import { listRecords } from '../../src/store/records.ts';
import { applyStar, reconcileStars } from '../../src/store/stars.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

let db: LanternDatabase;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db.remove();
});

const starOf = async (genId: string) => (await db.messages.findOne(genId).exec())?.toJSON().isStarred;
const listed = async (channelId: string) =>
  (await listRecords(db, 'starredMessage', { scope: channelId })).map((m) => m.genId).sort();

describe('reconciling stars after a catch-up', () => {
  it('sets the listed ones, clears the ones no longer listed, and clears nothing from a list cut short', async () => {
    const kept = makeServerMessage();
    const undone = makeServerMessage({ channelId: kept.channelId });
    const fresh = makeServerMessage({ channelId: kept.channelId });
    for (const m of [kept, undone, fresh]) await applyServerMessage(db, m);
    await applyStar(db, { ...kept, isStarred: true });
    await applyStar(db, { ...undone, isStarred: true });

    await reconcileStars(db, [kept.channelId], [fresh.genId], false, Date.now());
    expect([await starOf(kept.genId), await starOf(undone.genId), await starOf(fresh.genId)]).toEqual([
      true,
      true,
      true,
    ]);

    await reconcileStars(db, [kept.channelId], [fresh.genId, kept.genId], true, Date.now());
    expect([await starOf(kept.genId), await starOf(undone.genId), await starOf(fresh.genId)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(await listed(kept.channelId)).toEqual([kept.genId, fresh.genId].sort());
  });

  it('leaves a star made or undone here after the list was asked for', async () => {
    const madeHere = makeServerMessage();
    const undoneHere = makeServerMessage({ channelId: madeHere.channelId });
    for (const m of [madeHere, undoneHere]) await applyServerMessage(db, m);
    await applyStar(db, { ...undoneHere, isStarred: true });
    const askedAt = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    // While the catch-up was on its way: one star made, one undone (acks or messageStarred).
    await applyStar(db, { ...madeHere, isStarred: true });
    await applyStar(db, { ...undoneHere, isStarred: false });

    // The list, older than both, says the opposite of each.
    await reconcileStars(db, [madeHere.channelId], [undoneHere.genId], true, askedAt);
    expect([await starOf(madeHere.genId), await starOf(undoneHere.genId)]).toEqual([true, false]);
    expect(await listed(madeHere.channelId)).toEqual([madeHere.genId]);
  });
});
