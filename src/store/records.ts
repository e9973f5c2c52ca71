// Typed access to the generic `records` collection (decision 0004): channel roles, other people's
// memberships, join requests, sections, groups, profiles, local section state, pinned/starred lists,
// activities, uploads, notices, channel files and link previews, one row per item.
import type { RxCollection } from 'rxdb';
import type { RecordDoc, RecordKind, RecordKinds } from '../../schemas/collections.ts';
import { changedOnly } from './changed-rows.ts';

export interface RecordCollections {
  records: RxCollection<RecordDoc>;
}

/** The item's own id, from which the row key is made. */
const idOf: { [K in RecordKind]: (data: RecordKinds[K]) => string } = {
  channelRole: (d) => d.id,
  channelMember: (d) => d.id,
  channelRequest: (d) => d.id,
  section: (d) => d.id,
  group: (d) => d.id,
  memberProfile: (d) => d.member.id,
  sectionCollapsed: (d) => d.sectionId,
  pinnedMessage: (d) => d.genId,
  starredMessage: (d) => d.genId,
  activity: (d) => d.id,
  upload: (d) => d.id,
  notice: (d) => d.id,
  channelFile: (d) => d.id,
  linkPreview: (d) => d.id,
};

export const recordKey = (kind: RecordKind, id: string): string => `${kind}:${id}`;

/** Where a row is listed: its scope (channel or workspace) and its workspace. */
export interface RecordPlace {
  scope: string;
  institutionId: string;
}

export function toRecord<K extends RecordKind>(
  kind: K,
  data: RecordKinds[K],
  place: RecordPlace,
): RecordDoc<K> {
  return {
    key: recordKey(kind, idOf[kind](data)),
    kind,
    scope: place.scope,
    institutionId: place.institutionId,
    data,
  };
}

export async function putRecords<K extends RecordKind>(
  db: RecordCollections,
  kind: K,
  items: readonly { data: RecordKinds[K]; place: RecordPlace }[],
): Promise<void> {
  // Rows the store already holds as they are are not written again (changed-rows.ts).
  const changed = await changedOnly(
    db.records,
    items.map((i) => toRecord(kind, i.data, i.place) as RecordDoc),
  );
  if (changed.length) await db.records.bulkUpsert(changed);
}

export async function putRecord<K extends RecordKind>(
  db: RecordCollections,
  kind: K,
  data: RecordKinds[K],
  place: RecordPlace,
): Promise<void> {
  await db.records.upsert(toRecord(kind, data, place) as RecordDoc);
}

export async function getRecord<K extends RecordKind>(
  db: RecordCollections,
  kind: K,
  id: string,
): Promise<RecordKinds[K] | null> {
  const doc = await db.records.findOne(recordKey(kind, id)).exec();
  return doc ? ((doc.toJSON() as RecordDoc<K>).data as RecordKinds[K]) : null;
}

export async function removeRecord(db: RecordCollections, kind: RecordKind, id: string): Promise<void> {
  const doc = await db.records.findOne(recordKey(kind, id)).exec();
  if (!doc) return;
  try {
    await doc.incrementalRemove();
  } catch (error) {
    // Removed meanwhile by another tab or the worker: the outcome is the same.
    if ((error as { code?: string }).code !== 'CONFLICT') throw error;
  }
}

export type RecordFilter = { scope: string } | { institutionId: string };

export async function listRecords<K extends RecordKind>(
  db: RecordCollections,
  kind: K,
  filter: RecordFilter,
): Promise<RecordKinds[K][]> {
  const docs = await db.records.find({ selector: { kind, ...filter } }).exec();
  return docs.map((d) => (d.toJSON() as RecordDoc<K>).data as RecordKinds[K]);
}

/**
 * Mirrors a server list: rows of `kind` under `filter` that the list no longer has are removed, the
 * others upserted. `keep` spares rows the server cannot know yet (e.g. sections created offline).
 */
export async function replaceRecords<K extends RecordKind>(
  db: RecordCollections,
  kind: K,
  filter: RecordFilter,
  items: readonly RecordKinds[K][],
  place: RecordPlace,
  keep: (data: RecordKinds[K]) => boolean = () => false,
  /**
   * When the list was asked for (before the request went out). Rows written after it (a newer answer, from
   * this context or the worker's) are newer than this list and are left as they are, so a slow answer
   * cannot take back a member who joined meanwhile.
   */
  fetchedAt?: number,
): Promise<void> {
  const wanted = new Set(items.map((d) => recordKey(kind, idOf[kind](d))));
  const existing = await db.records.find({ selector: { kind, ...filter } }).exec();
  const older = (lwt: number) => fetchedAt === undefined || lwt < fetchedAt;
  const stale = existing.filter(
    (d) =>
      !wanted.has(d.key) &&
      older(d.toJSON(true)._meta.lwt) &&
      !keep((d.toJSON() as RecordDoc<K>).data as RecordKinds[K]),
  );
  if (stale.length) await db.records.bulkRemove(stale.map((d) => d.key));
  let fresh = items;
  if (fetchedAt !== undefined && items.length) {
    // Removed ones too: a removal after fetchedAt is newer than this list.
    const stored = await db.records.storageInstance.findDocumentsById([...wanted], true);
    const newer = new Set(stored.filter((d) => !older(d._meta.lwt)).map((d) => d.key));
    fresh = items.filter((d) => !newer.has(recordKey(kind, idOf[kind](d))));
  }
  await putRecords(
    db,
    kind,
    fresh.map((data) => ({ data, place })),
  );
}
