// A channel's messages: the live list, sending (a local echo on the next frame from memory,
// src/store/local-echo.ts, while the rows are written; the worker sends it from the outbox), retry and
// discard, older pages, and the intents on a message (edit, delete, react, pin, star, polls, forward).
// Those are applied to the store at once and queued in the outbox (src/store/message-outbox.ts); the
// worker sends each exactly once.

import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { MessageDoc } from '../../schemas/collections.ts';
import { type Attachment, MESSAGE_PAGE_SIZE, type Mention } from '../../schemas/protocol/index.ts';
import {
  addEcho,
  afterEchoPainted,
  dropEcho,
  echoesOf,
  echoWritten,
  subscribeEchoes,
  withEchoes,
} from '../store/local-echo.ts';
import { myVote } from '../store/message-ops.ts';
import { orderMessages } from '../store/message-order.ts';
import * as ops from '../store/message-outbox.ts';
import {
  FIRST_WINDOW,
  type MessageWindow,
  type Reach,
  reachAfterAnswer,
  WINDOW_STEP,
} from '../store/message-window-size.ts';
import { applyServerMessages } from '../store/messages.ts';
import * as outbox from '../store/outbox.ts';
import { requeueUpload } from '../store/uploads.ts';
import { requireClient, type StoreClient } from './client.ts';
import { noteBeginningReached } from './history-beginning.ts';
import { subscribeStoreRead, useStoreRead } from './store-reads.ts';

/**
 * The channel's newest messages (src/store/message-window.ts) with the echoes of messages just sent
 * whose rows the store has not shown yet; showOlder() widens the window.
 */
export function useMessageWindow(channelId: string):
  | (Omit<MessageWindow, 'held'> & {
      showOlder: () => void;
      /** Takes the window down to the message at this createdSeq as well (a link to it). */
      reachTo: (createdSeq: number) => void;
      onlyDeleted: boolean;
    })
  | undefined {
  const [widened, setWidened] = useState<{ channelId: string; size: number } & Reach>({
    channelId,
    size: FIRST_WINDOW,
  });
  const size = widened.channelId === channelId ? widened.size : FIRST_WINDOW;
  const reach = widened.channelId === channelId ? widened.reach : undefined;
  // Kept per channel, so widening shows the old window until the wider one answers.
  const [state, setState] = useState<
    { channelId: string; reach: number | undefined; window: MessageWindow } | undefined
  >(undefined);
  useEffect(
    () =>
      subscribeStoreRead(
        'messageWindow',
        { channelId, size, ...(reach === undefined ? {} : { reach }) },
        (window) => setState({ channelId, reach, window }),
      ),
    [channelId, size, reach],
  );
  // Read synchronously, so the Enter that sends renders the echo in the same task.
  const echoes = useSyncExternalStore(subscribeEchoes, () => echoesOf(channelId));
  const current = state?.channelId === channelId ? state.window : undefined;
  // An echo whose stored row is in the window has done its job.
  useEffect(() => {
    if (!current || echoes.length === 0) return;
    for (const echo of echoes) if (current.held.has(echo.genId)) dropEcho(channelId, echo.genId);
  }, [current, echoes, channelId]);
  const messages = useMemo(
    () => (current ? withEchoes(current.messages, echoes, orderMessages, current.held) : undefined),
    [current, echoes],
  );
  // The window's answer to a reach: remembered when it held, undone when too far (reachAfterAnswer).
  // Only the answer for the reach now asked: the window shown meanwhile may be an earlier one's.
  const answered = state?.reach === reach ? current?.reach : undefined;
  useEffect(() => {
    if (!answered) return;
    setWidened((now) => {
      if (now.channelId !== channelId || now.reach !== reach) return now;
      const next = reachAfterAnswer(now, answered);
      return next.reach === now.reach && next.lastHeld === now.lastHeld
        ? now
        : { channelId, size: now.size, ...next };
    });
  }, [answered, reach, channelId]);
  // Wider than what is shown, never narrower: a window first read while a catch-up was still filling the
  // store can hold more rows than its size asked for, and widened by a step from its size it lost the
  // rows at its top, the very ones the reader had scrolled up to (e2e/older-messages.spec).
  const heldCount = current?.held.size ?? 0;
  const showOlder = useCallback(() => {
    const wider = Math.max(size, heldCount) + WINDOW_STEP;
    setWidened((now) => (now.channelId === channelId ? { ...now, size: wider } : { channelId, size: wider }));
  }, [channelId, size, heldCount]);
  // The lowest place asked for stays: a second link, nearer the newest, does not take rows away.
  const reachTo = useCallback(
    (createdSeq: number) =>
      setWidened((now) =>
        now.channelId !== channelId
          ? { channelId, size: FIRST_WINDOW, reach: createdSeq }
          : { ...now, reach: Math.min(now.reach ?? createdSeq, createdSeq) },
      ),
    [channelId],
  );
  if (!current || !messages) return undefined;
  // Rows were read but every one is a tombstone: the channel has nothing to show here, not nothing yet.
  const onlyDeleted = messages.length === 0 && current.held.size > 0;
  return {
    messages,
    hasOlderStored: current.hasOlderStored,
    showOlder,
    reachTo,
    onlyDeleted,
    ...(current.reach ? { reach: current.reach } : {}),
  };
}

/**
 * Sends a post: its echo is on screen before this first awaits (the caller is the Enter handler); after
 * that frame the message and outbox rows are written exactly as they always were. A failed write drops
 * the echo and throws, so the composer gives the words back. `memberId` is the sender's member id in the
 * workspace.
 */
export async function sendMessage(input: {
  institutionId: string;
  channelId: string;
  memberId: string;
  content: string;
  replyTo?: string | null;
  mentions?: Mention[];
  attachments?: Attachment[];
}): Promise<string> {
  const post = outbox.preparePost(input);
  addEcho(post.message);
  try {
    // The words stay in the composer's draft until the write succeeds: waiting a frame loses nothing.
    await afterEchoPainted();
    const { db, worker } = await requireClient();
    await outbox.writePost(db, post);
    echoWritten(input.channelId, post.message.genId);
    // The worker also watches the outbox; the nudge only saves it a tick.
    void worker.drainOutbox();
    return post.message.genId;
  } catch (error) {
    dropEcho(input.channelId, post.message.genId);
    throw error;
  }
}

/** Retry a failed message; files of it whose upload failed are retried too. */
export async function retryMessage(genId: string): Promise<void> {
  const { db, worker } = await requireClient();
  const message = await db.messages.findOne(genId).exec();
  for (const a of message?.attachments ?? []) if (a.isUploading) await requeueUpload(db, a.id);
  await outbox.retryMessage(db, genId);
  void worker.uploadFiles();
  void worker.drainOutbox();
}

export interface SendFailure {
  /** The refusal as recorded in the outbox (the server's sentence, or the upload's). */
  lastError: string | null;
  /** Sending the same again may succeed (the server failed or was busy; a file may upload now). */
  retryable: boolean;
}

/** Why a failed message was not sent, and whether sending it again may succeed (its outbox row). */
export function useSendFailure(genId: string): SendFailure | undefined {
  return useStoreRead('sendFailure', { genId }) ?? undefined;
}

export async function discardMessage(genId: string): Promise<void> {
  const { db } = await requireClient();
  await outbox.discardMessage(db, genId);
}

/**
 * The page older than what the store holds (newest first on the server); the no-more-pages marker is not
 * persisted. It follows on from the oldest message stored, by its place in the channel: a page number
 * counted from the stored rows skipped a message for every one deleted since (a tombstone counted as a
 * row, or a stored message no longer in the server's live history) and repeated every one posted since.
 */
export async function loadOlderMessages(
  institutionId: string,
  channelId: string,
  limit = MESSAGE_PAGE_SIZE,
): Promise<{ hasMore: boolean }> {
  const { http, db } = await requireClient();
  // The confirmed ones are those with a server seq (a pending or failed message has createdSeq 0); the
  // [channelId, createdSeq] index finds the oldest without reading the others.
  const oldest = await db.messages
    .findOne({ selector: { channelId, createdSeq: { $gt: 0 } }, sort: [{ createdSeq: 'asc' }] })
    .exec();
  const res = await http.call('messages', {
    params: { id: institutionId, channelId },
    query: {
      limit: String(limit),
      ...(oldest ? { before: String(oldest.createdSeq) } : { page: '1' }),
    },
  });
  // One write for the page: a write per message re-rendered the open list once per row.
  await applyServerMessages(db, res.data);
  if (!res.metadata.hasMore) noteBeginningReached(channelId);
  return { hasMore: res.metadata.hasMore };
}

/**
 * Spec §4: page 1 of one channel again, whatever the store holds — an installed app slept through what
 * a clicked notification announced. Throttles and checkpoints are not consulted (forced).
 */
export async function refetchFirstPage(channelId: string): Promise<void> {
  const { http, db } = await requireClient();
  const channel = await db.channels.findOne(channelId).exec();
  if (!channel) return;
  const res = await http.call('messages', {
    params: { id: channel.institutionId, channelId },
    query: { page: '1', limit: String(MESSAGE_PAGE_SIZE) },
  });
  await applyServerMessages(db, res.data);
}

/** The caller's member id in the message's workspace. */
async function me(client: StoreClient, genId: string): Promise<string> {
  const message = await client.db.messages.findOne(genId).exec();
  if (!message) throw new Error('This message is no longer here');
  const institution = await client.db.institutions.findOne(message.institutionId).exec();
  return institution?.member.id ?? '';
}

/** Runs a store change for a message and nudges the worker (it also watches the outbox). */
async function queued(
  genId: string,
  change: (client: StoreClient, memberId: string) => Promise<unknown>,
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
