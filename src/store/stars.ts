// Stars follow the person across devices (decision 0082). A star is private: no channel broadcast carries
// it. This device learns of one made or undone elsewhere from messageStarred (while connected) and from
// the catch-up feed's list of the person's stars (after being away). The `starredMessage` records are
// what this device knows is starred on the server, so the list can also say what was undone.
import type { MessageDoc } from '../../schemas/collections.ts';
import type { Message, StarredMessage } from '../../schemas/protocol/index.ts';
import { rebase, stripBase } from './message-ops.ts';
import { type MessageCollections, queuedOperations } from './messages.ts';
import { putRecord, type RecordCollections, recordKey, removeRecord } from './records.ts';

export type StarCollections = MessageCollections & RecordCollections;

/** A stored confirmed message as the server last gave it, to list in the starred panel. */
function asMessage(doc: MessageDoc): Message {
  const { status: _status, ...rest } = doc.base ?? stripBase(doc);
  return { ...rest, id: rest.id as string };
}

/** Sets the server's star on a stored confirmed message, keeping this person's queued operations over it. */
async function setStoredStar(db: MessageCollections, genId: string, isStarred: boolean): Promise<void> {
  const row = await db.messages.findOne(genId).exec();
  if (!row) return;
  const queued = await queuedOperations(db, genId);
  await row.incrementalModify((d) => {
    const current = d as MessageDoc;
    const base = current.base ?? stripBase(current);
    if (base.status !== 'confirmed' || base.isStarred === isStarred) return current;
    return rebase({ ...base, isStarred }, queued);
  });
}

/** Keeps the panel's list in step with one message's star on the server. */
async function recordStar(db: RecordCollections, message: Message, isStarred: boolean): Promise<void> {
  if (isStarred)
    await putRecord(db, 'starredMessage', message, {
      scope: message.channelId,
      institutionId: message.institutionId,
    });
  else await removeRecord(db, 'starredMessage', message.genId);
}

/**
 * A star made or undone on any of this person's devices (messageStarred, or this device's own star ack):
 * the stored copy and the panel's list take it. A message this device does not hold is not stored for it.
 */
export async function applyStar(db: StarCollections, message: StarredMessage): Promise<void> {
  await setStoredStar(db, message.genId, message.isStarred);
  await recordStar(db, message, message.isStarred);
}

/**
 * After a catch-up of `channelIds`: `starred` is every star of this person's there (newest first), so a
 * stored message it names is starred, and one this device had as starred that it no longer names was
 * undone elsewhere; unless the list was cut short (`complete` false), when nothing is cleared. A star this
 * device heard of after `askedAt` (its own ack, messageStarred) is newer than the list and is left alone.
 */
export async function reconcileStars(
  db: StarCollections,
  channelIds: readonly string[],
  starred: readonly string[],
  complete: boolean,
  askedAt: number,
): Promise<void> {
  if (!channelIds.length) return;
  const listed = new Set(starred);
  const known = await db.records
    .find({ selector: { kind: 'starredMessage', scope: { $in: [...channelIds] } } })
    .exec();
  const knownGenIds = known.map((r) => (r.toJSON().data as Message).genId);
  const recorded = new Set(knownGenIds);
  // Records written or removed since the request went out, removed ones included.
  const keys = [...new Set([...listed, ...knownGenIds])].map((genId) => recordKey('starredMessage', genId));
  const newer = new Set(
    (await db.records.storageInstance.findDocumentsById(keys, true))
      .filter((d) => d._meta.lwt >= askedAt)
      .map((d) => (d.data as Message).genId),
  );
  const undone = complete ? knownGenIds.filter((genId) => !listed.has(genId) && !newer.has(genId)) : [];
  const docs = await db.messages.findByIds([...listed, ...undone]).exec();
  for (const genId of listed) {
    if (newer.has(genId)) continue;
    const doc = docs.get(genId)?.toJSON() as MessageDoc | undefined;
    // Only what the server confirmed can carry its star (a pending copy waits for its ack).
    if (doc?.status !== 'confirmed' && doc?.base?.status !== 'confirmed') continue;
    if (!(doc.base ?? doc).isStarred) await setStoredStar(db, genId, true);
    if (!recorded.has(genId)) await recordStar(db, asMessage(doc), true);
  }
  for (const genId of undone) {
    if (docs.has(genId)) await setStoredStar(db, genId, false);
    await removeRecord(db, 'starredMessage', genId);
  }
}
