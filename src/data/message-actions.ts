// Message intents of issue 4 (decision 0001): edit, delete, react, pin, star, polls and forward are
// applied to the store at once and queued in the outbox (src/store/message-outbox.ts); the worker sends
// each exactly once. The pinned, starred and activity lists are fetched into `records`.
import type { MessageDoc, Notice } from '../../schemas/collections.ts';
import type { ActivitiesResponse, Mention, Message, MessageListResponse } from '../../schemas/protocol.ts';
import { ACTIVITY_PAGE_SIZE, MESSAGE_PAGE_SIZE } from '../../schemas/protocol.ts';
import { myVote } from '../store/message-ops.ts';
import * as ops from '../store/message-outbox.ts';
import { applyServerMessage } from '../store/messages.ts';
import { listRecords, putRecords, removeRecord, replaceRecords } from '../store/records.ts';
import { type LanternClient, requireClient } from './client.ts';
import { channelPath, institutionPath } from './workspace-store.ts';

/** The caller's member id in the message's workspace. */
async function me(client: LanternClient, genId: string): Promise<string> {
  const message = await client.db.messages.findOne(genId).exec();
  if (!message) throw new Error('This message is no longer here');
  const institution = await client.db.institutions.findOne(message.institutionId).exec();
  return institution?.member.id ?? '';
}

/** Runs a store change for a message and nudges the worker (it also watches the outbox). */
async function queued(
  genId: string,
  change: (client: LanternClient, memberId: string) => Promise<unknown>,
): Promise<void> {
  const client = await requireClient();
  await change(client, await me(client, genId));
  void client.worker.drainOutbox();
}

/** Own messages; a pending or failed one has its queued post rewritten instead. */
export function editMessage(genId: string, edit: { content: string; mentions?: Mention[] }): Promise<void> {
  return queued(genId, (c, m) => ops.editMessage(c.db, genId, m, edit));
}

/** A pending or failed message is only removed here; a sent one is deleted for everyone. */
export function deleteMessage(genId: string): Promise<void> {
  return queued(genId, (c, m) => ops.deleteMessage(c.db, genId, m));
}

export function toggleReaction(genId: string, emoji: string): Promise<void> {
  return queued(genId, (c, m) => ops.toggleReaction(c.db, genId, m, emoji));
}

export function togglePinMessage(genId: string): Promise<void> {
  return queued(genId, (c, m) => ops.togglePin(c.db, genId, m));
}

/** Stars are the caller's own. */
export function toggleStarredMessage(genId: string): Promise<void> {
  return queued(genId, (c, m) => ops.toggleStar(c.db, genId, m));
}

/** The caller's whole vote (replaces an earlier one); single-choice polls take one index. */
export function voteOnPoll(genId: string, optionIndexes: number[]): Promise<void> {
  return queued(genId, (c, m) =>
    ops.enqueueMessageOperation(c.db, genId, m, { kind: 'pollVote', optionIndexes }),
  );
}

export function removeVoteOnPoll(genId: string): Promise<void> {
  return queued(genId, async (c, m) => {
    const doc = await c.db.messages.findOne(genId).exec();
    if (doc && myVote(doc.toJSON() as MessageDoc, m).length === 0) return;
    await ops.enqueueMessageOperation(c.db, genId, m, { kind: 'pollUnvote' });
  });
}

/** By its author or a channel owner. */
export function closePoll(genId: string): Promise<void> {
  return queued(genId, (c, m) => ops.enqueueMessageOperation(c.db, genId, m, { kind: 'pollClose' }));
}

/** Pending copies show at once in every target channel; returns their genIds. */
export async function forwardMessage(genId: string, channelIds: string[]): Promise<string[]> {
  let genIds: string[] = [];
  await queued(genId, async (c, m) => {
    genIds = await ops.forwardMessage(c.db, genId, m, channelIds);
  });
  return genIds;
}

/** A new poll message, shown at once as pending; returns its genId. */
export async function createPoll(input: {
  institutionId: string;
  channelId: string;
  question: string;
  options: string[];
  multiple: boolean;
}): Promise<string> {
  const { db, worker } = await requireClient();
  const institution = await db.institutions.findOne(input.institutionId).exec();
  const genId = await ops.enqueuePoll(db, { ...input, memberId: institution?.member.id ?? '' });
  void worker.drainOutbox();
  return genId;
}

/** A toast was shown: the notice goes. */
export async function dismissNotice(noticeId: string): Promise<void> {
  const { db } = await requireClient();
  await removeRecord(db, 'notice', noticeId);
}

export async function listNotices(institutionId: string): Promise<Notice[]> {
  const { db } = await requireClient();
  return listRecords(db, 'notice', { institutionId });
}

// ───────────────────────────── pinned and starred lists ─────────────────────────────
async function fetchMessageList(
  kind: 'pinnedMessage' | 'starredMessage',
  institutionId: string,
  channelId: string,
  page: number,
): Promise<{ hasMore: boolean }> {
  const { http, db } = await requireClient();
  const which = kind === 'pinnedMessage' ? 'pinned' : 'starred';
  const res = await http.get<MessageListResponse>(
    `${channelPath(institutionId, channelId)}/messages/${which}?page=${page}&limit=${MESSAGE_PAGE_SIZE}`,
  );
  const messages: Message[] = res.data.map((i) => i.message);
  const place = { scope: channelId, institutionId };
  // The first page replaces the list (unpinned elsewhere drop out); later pages add to it.
  if (page === 1) await replaceRecords(db, kind, { scope: channelId }, messages, place);
  else
    await putRecords(
      db,
      kind,
      messages.map((data) => ({ data, place })),
    );
  // Messages the store already holds get the fresher copy (and starred ones their star).
  for (const m of messages) {
    if (!(await db.messages.findOne(m.genId).exec())) continue;
    await applyServerMessage(db, kind === 'starredMessage' ? { ...m, isStarred: true } : m);
  }
  return { hasMore: res.metadata.hasMore };
}

export function refreshPinnedMessages(
  institutionId: string,
  channelId: string,
  page = 1,
): Promise<{ hasMore: boolean }> {
  return fetchMessageList('pinnedMessage', institutionId, channelId, page);
}

export function refreshStarredMessages(
  institutionId: string,
  channelId: string,
  page = 1,
): Promise<{ hasMore: boolean }> {
  return fetchMessageList('starredMessage', institutionId, channelId, page);
}

// ───────────────────────────── activity feed ─────────────────────────────
/** A page of the caller's activity feed into the store; the first page replaces what was kept. */
export async function refreshActivities(
  institutionId: string,
  page = 1,
): Promise<{ hasMore: boolean; unread: number }> {
  const { http, db } = await requireClient();
  const res = await http.get<ActivitiesResponse>(
    `${institutionPath(institutionId)}/activities?page=${page}&limit=${ACTIVITY_PAGE_SIZE}`,
  );
  const place = { scope: institutionId, institutionId };
  if (page === 1) await replaceRecords(db, 'activity', { scope: institutionId }, res.data, place);
  else
    await putRecords(
      db,
      'activity',
      res.data.map((data) => ({ data, place })),
    );
  return { hasMore: res.metadata.hasMore, unread: res.metadata.unread };
}

/** Marks these activities (or all of them) read, here at once and then on the server. */
export async function markActivitiesRead(institutionId: string, ids: string[] | 'all'): Promise<void> {
  const { http, db } = await requireClient();
  const stored = await listRecords(db, 'activity', { scope: institutionId });
  const wanted = ids === 'all' ? null : new Set(ids);
  const changed = stored.filter((a) => !a.read && (!wanted || wanted.has(a.id)));
  const place = { scope: institutionId, institutionId };
  await putRecords(
    db,
    'activity',
    changed.map((a) => ({ data: { ...a, read: true }, place })),
  );
  if (ids !== 'all' && ids.length === 0) return;
  await http.put(
    `${institutionPath(institutionId)}/activities/read`,
    ids === 'all' ? { all: true } : { ids },
  );
}
