// Socket events in both directions.
import { z } from 'zod';
import type { ServerBuildEvent } from './app-version.ts';
import type { ChannelRequest, MemberActionEvent, memberActionPayload } from './channel-members.ts';
import type { joinChannelPayload, resetUnreadCountPayload } from './channels.ts';
import type { Ack } from './errors.ts';
import type {
  ClosePollPayload,
  CreatePollPayload,
  ForwardMessagePayload,
  RemoveVoteOnPollPayload,
  TogglePinMessagePayload,
  ToggleReactionPayload,
  ToggleStarredMessagePayload,
  VoteOnPollPayload,
} from './message-actions.ts';
import type {
  deleteMessagePayload,
  editMessagePayload,
  Message,
  postMessagePayload,
  StarredMessage,
} from './messages.ts';
import { id } from './primitives.ts';
import type { visitChannelPayload, visitGroupPayload, visitMemberPayload } from './visits.ts';

/**
 * joinedChannels, members, institutions: reload that list; sections: the caller's sidebar layout; groups:
 * the workspace's groups; channelMembers: who is in `channelId` (or their channel roles) changed, so a
 * client showing that channel reloads its member list.
 */
export const refreshEvent = z.object({
  value: z.enum(['joinedChannels', 'members', 'institutions', 'sections', 'groups', 'channelMembers']),
  channelId: id.optional(),
});
export const userOnlineStatusEvent = z.object({
  user: z.object({ id }),
  status: z.enum(['online', 'offline']),
});
/**
 * Presence changes that piled up while earlier ones were being sent, one packet per workspace, instead of
 * several userOnlineStatusUpdate: when many people connect at once (a restart, a network coming back) one
 * packet each would be millions of socket writes. Each user's latest change, in the order they happened.
 */
export const userOnlineStatusUpdates = z.object({ updates: z.array(userOnlineStatusEvent) });

/** Events the client sends, with their payload and acknowledgement. */
export interface ClientToServerEvents {
  joinChannel: (p: z.input<typeof joinChannelPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  postMessage: (p: z.input<typeof postMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  editMessage: (p: z.input<typeof editMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  deleteMessage: (p: z.input<typeof deleteMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  resetUnreadCount: (p: z.input<typeof resetUnreadCountPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  togglePinMessage: (p: TogglePinMessagePayload, ack: (r: Ack<Message>) => void) => void;
  toggleReaction: (p: ToggleReactionPayload, ack: (r: Ack<Message>) => void) => void;
  toggleStarredMessage: (p: ToggleStarredMessagePayload, ack: (r: Ack<StarredMessage>) => void) => void;
  createPoll: (p: CreatePollPayload, ack: (r: Ack<Message>) => void) => void;
  closePoll: (p: ClosePollPayload, ack: (r: Ack<Message>) => void) => void;
  voteOnPoll: (p: VoteOnPollPayload, ack: (r: Ack<Message>) => void) => void;
  removeVoteOnPoll: (p: RemoveVoteOnPollPayload, ack: (r: Ack<Message>) => void) => void;
  forwardMessage: (p: ForwardMessagePayload, ack: (r: Ack<Message[]>) => void) => void;
  memberAction: (p: z.input<typeof memberActionPayload>, ack: (r: Ack<ChannelRequest>) => void) => void;
  visitMember: (p: z.input<typeof visitMemberPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  visitChannel: (p: z.input<typeof visitChannelPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  visitGroup: (p: z.input<typeof visitGroupPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
}

/** Events the server emits. */
export interface ServerToClientEvents {
  newMessage: (m: Message) => void;
  /** Any change to a message: edit, reaction, pin, vote, poll closed. */
  newEditMessage: (m: Message) => void;
  /** Also sent (after newEditMessage) when a message is pinned or unpinned: pinned panels refresh. */
  newEditPinnedMessage: (m: Message) => void;
  newDeleteMessage: (m: Message) => void;
  /** To the starrer's own sessions only (every device of theirs): a star made or undone. */
  messageStarred: (m: StarredMessage) => void;
  refresh: (e: z.infer<typeof refreshEvent>) => void;
  userOnlineStatusUpdate: (e: z.infer<typeof userOnlineStatusEvent>) => void;
  userOnlineStatusUpdates: (e: z.infer<typeof userOnlineStatusUpdates>) => void;
  memberAction: (e: MemberActionEvent) => void;
  /** The build the server serves, on every connection (decision 0043). */
  serverBuild: (e: ServerBuildEvent) => void;
}
