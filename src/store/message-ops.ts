// Pure rules of message operations on the local copy: how a reaction, pin, star, vote, close, edit or
// delete shows at once, and how a server copy is rebased under the operations still queued.
import type { MessageActionOperation, MessageBase, MessageDoc } from '../../schemas/collections.ts';
import type { Poll, Reaction } from '../../schemas/protocol/index.ts';

/** What the operation does to the message as seen locally; `at` is when it was made. */
export function applyOperation(doc: MessageBase, op: MessageActionOperation, at: string): MessageBase {
  switch (op.kind) {
    case 'edit':
      return { ...doc, content: op.content, mentions: op.mentions, editedAt: at };
    case 'delete':
      return { ...doc, content: '', deletedAt: doc.deletedAt ?? at };
    case 'reaction':
      return { ...doc, reactions: setReaction(doc.reactions, op.emoji, op.memberId, op.reacted) };
    case 'pin':
      return { ...doc, isPinned: op.pinned };
    case 'star':
      return { ...doc, isStarred: op.starred };
    case 'pollVote':
      return doc.poll ? { ...doc, poll: setVote(doc.poll, op.memberId, op.optionIndexes) } : doc;
    case 'pollUnvote':
      return doc.poll ? { ...doc, poll: setVote(doc.poll, op.memberId, []) } : doc;
    case 'pollClose':
      return doc.poll ? { ...doc, poll: { ...doc.poll, closedAt: doc.poll.closedAt ?? at } } : doc;
    case 'forward':
      return doc;
  }
}

/** The member's reaction with `emoji` present or absent; an emoji nobody uses any more disappears. */
export function setReaction(
  reactions: readonly Reaction[],
  emoji: string,
  memberId: string,
  reacted: boolean,
): Reaction[] {
  const existing = reactions.find((r) => r.emoji === emoji);
  if (!existing) {
    return reacted ? [...reactions, { emoji, count: 1, memberIds: [memberId] }] : [...reactions];
  }
  const has = existing.memberIds.includes(memberId);
  if (has === reacted) return [...reactions];
  const memberIds = reacted
    ? [...existing.memberIds, memberId]
    : existing.memberIds.filter((m) => m !== memberId);
  if (!memberIds.length) return reactions.filter((r) => r.emoji !== emoji);
  return reactions.map((r) => (r.emoji === emoji ? { emoji, count: memberIds.length, memberIds } : r));
}

/** The member's whole vote becomes `optionIndexes` (empty: no vote). */
export function setVote(poll: Poll, memberId: string, optionIndexes: readonly number[]): Poll {
  const chosen = new Set(optionIndexes);
  return {
    ...poll,
    options: poll.options.map((o, i) => {
      const memberIds = o.memberIds.filter((m) => m !== memberId);
      if (chosen.has(i)) memberIds.push(memberId);
      return { ...o, votes: memberIds.length, memberIds };
    }),
  };
}

/** Whether the member reacted with `emoji` (what a toggle flips). */
export const hasReacted = (doc: MessageBase, emoji: string, memberId: string): boolean =>
  doc.reactions.some((r) => r.emoji === emoji && r.memberIds.includes(memberId));

/** The member's current vote (option indexes). */
export const myVote = (doc: MessageBase, memberId: string): number[] =>
  (doc.poll?.options ?? []).flatMap((o, i) => (o.memberIds.includes(memberId) ? [i] : []));

export const stripBase = (doc: MessageDoc): MessageBase => {
  const { base: _base, ...rest } = doc;
  return rest;
};

/** The row to show: `base` with the queued operations (oldest first) laid over it. */
export function rebase(
  base: MessageBase,
  queued: readonly { operation: MessageActionOperation; createdAt: string }[],
): MessageDoc {
  if (!queued.length) return { ...base, base: null };
  let doc = base;
  for (const q of queued) doc = applyOperation(doc, q.operation, q.createdAt);
  return { ...doc, base };
}
