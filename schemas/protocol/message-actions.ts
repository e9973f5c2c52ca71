// Socket operations on an existing message: pins, reactions, stars, polls, forwarding.
import { z } from 'zod';
import { channelRef } from './channels.ts';
import {
  FORWARD_TARGETS_MAX,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX,
  REACTION_EMOJI_MAX,
} from './messages.ts';
import { genId, id } from './primitives.ts';

/**
 * Message actions. Each carries the client's idempotency key `opId`: the server applies an op once and
 * answers a repeat with the current message, changing and broadcasting nothing. Toggles may state the
 * wanted end state (pinned, reacted, starred) so a replay can never undo itself; without it the server
 * flips, and remembers the result under the opId.
 */
export const opId = z.string().max(36, { abort: true }).uuid();
const messageOp = channelRef.extend({ messageId: id, opId });
export const togglePinMessagePayload = messageOp.extend({ pinned: z.boolean().optional() });
export type TogglePinMessagePayload = z.input<typeof togglePinMessagePayload>;
export const toggleReactionPayload = messageOp.extend({
  emoji: z.string().trim().min(1, 'Emoji cannot be empty').max(REACTION_EMOJI_MAX),
  reacted: z.boolean().optional(),
});
export type ToggleReactionPayload = z.input<typeof toggleReactionPayload>;
export const toggleStarredMessagePayload = messageOp.extend({ starred: z.boolean().optional() });
export type ToggleStarredMessagePayload = z.input<typeof toggleStarredMessagePayload>;
/** A poll is a new message: genId is its id like postMessage's (the message exists once per genId). */
export const createPollPayload = channelRef.extend({
  opId,
  genId,
  question: z.string().trim().min(1, 'Question cannot be empty').max(POLL_QUESTION_MAX),
  options: z
    .array(z.string().trim().min(1, 'Option cannot be empty').max(POLL_OPTION_MAX))
    .min(POLL_OPTIONS_MIN, 'A poll needs at least 2 options')
    .max(POLL_OPTIONS_MAX, 'A poll has at most 10 options'),
  multiple: z.boolean().default(false),
});
export type CreatePollPayload = z.input<typeof createPollPayload>;
export const closePollPayload = messageOp;
export type ClosePollPayload = z.input<typeof closePollPayload>;
/** The caller's whole vote: replaces any earlier one. Single-choice polls take exactly one index. */
export const voteOnPollPayload = messageOp.extend({
  optionIndexes: z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(POLL_OPTIONS_MAX - 1),
    )
    .min(1, 'Choose an option')
    .max(POLL_OPTIONS_MAX),
});
export type VoteOnPollPayload = z.input<typeof voteOnPollPayload>;
export const removeVoteOnPollPayload = messageOp;
export type RemoveVoteOnPollPayload = z.input<typeof removeVoteOnPollPayload>;
/** channelId is the source channel; genIds[i] is the new message's genId in channelIds[i]. */
export const forwardMessagePayload = messageOp
  .extend({
    channelIds: z.array(id).min(1, 'Choose a channel').max(FORWARD_TARGETS_MAX),
    genIds: z.array(genId).min(1).max(FORWARD_TARGETS_MAX),
  })
  .refine((p) => p.genIds.length === p.channelIds.length, 'Give one genId per channel')
  .refine((p) => new Set(p.channelIds).size === p.channelIds.length, 'A channel is listed twice');
export type ForwardMessagePayload = z.input<typeof forwardMessagePayload>;
