// Sidebar changes work offline (issue 3 item 10): each is applied to the stored sections at once and
// queued in the outbox under the workspace's sections pseudo channel, so the worker sends them in
// order when connected. A layout fetched from the server gets the still-queued changes laid over it.
import type { RxCollection } from 'rxdb';
import {
  isSectionOperation,
  type OutboxDoc,
  type RecordDoc,
  type SectionOperation,
  sectionsOutboxChannel,
} from '../../schemas/collections.ts';
import type { Section } from '../../schemas/protocol/index.ts';
import { newGenId } from './gen-id.ts';
import { nextOrder } from './outbox-state.ts';
import { replaceRecords } from './records.ts';
import { applySectionOperation } from './sections.ts';

export interface SectionOutboxCollections {
  records: RxCollection<RecordDoc>;
  outbox: RxCollection<OutboxDoc>;
}

/** The changes of one workspace not yet accepted by the server, oldest first. */
export async function queuedSectionOperations(
  db: Pick<SectionOutboxCollections, 'outbox'>,
  institutionId: string,
): Promise<SectionOperation[]> {
  const rows = await db.outbox.find({ selector: { channelId: sectionsOutboxChannel(institutionId) } }).exec();
  return rows
    .map((r) => r.toJSON() as OutboxDoc)
    .filter((r) => r.state === 'queued')
    .sort((a, b) => a.order - b.order)
    .flatMap((r) => (isSectionOperation(r.operation) ? [r.operation] : []));
}

/**
 * The server's layout into the store, with the changes still queued here applied on top. `fetchedAt`
 * (when the layout was asked for): a section written after it, by a change made in a tab while the
 * worker's request was out, is newer than this layout and stays as it is.
 */
export async function storeSections(
  db: SectionOutboxCollections,
  institutionId: string,
  fromServer: readonly Section[],
  fetchedAt?: number,
): Promise<void> {
  let sections = [...fromServer];
  for (const op of await queuedSectionOperations(db, institutionId))
    sections = applySectionOperation(sections, op);
  await replaceRecords(
    db,
    'section',
    { institutionId },
    sections,
    { scope: institutionId, institutionId },
    undefined,
    fetchedAt,
  );
}

/** Writes the changed layout to the store and queues the change for the server. Returns the outbox key. */
export async function queueSectionChange(
  db: SectionOutboxCollections,
  institutionId: string,
  next: readonly Section[],
  operation: SectionOperation,
  now: number = Date.now(),
): Promise<string> {
  const key = `${operation.kind}:${newGenId(now)}`;
  // The outbox row first: a server layout stored between the two writes (the worker storing the answer to
  // the previous change) then lays this change over it instead of taking the new order back.
  await db.outbox.insert({
    key,
    order: nextOrder(now),
    state: 'queued',
    institutionId,
    channelId: sectionsOutboxChannel(institutionId),
    genId: key,
    operation,
    attempts: 0,
    lastError: null,
    createdAt: new Date(now).toISOString(),
  });
  await replaceRecords(db, 'section', { institutionId }, next, { scope: institutionId, institutionId });
  return key;
}
