// The socket events as values: each event's payload and acknowledgement schema, in both directions, for
// the generated docs (scripts/socket-docs.ts → docs/socket-events.md). `satisfies` ties the table to the
// typed interfaces of socket.ts, so an event added there and not here (or the reverse) fails the typecheck.
import { z } from 'zod';
import { serverBuildEvent } from './app-version.ts';
import { channelRequest, memberActionEvent, memberActionPayload } from './channel-members.ts';
import { joinChannelPayload, resetUnreadCountPayload } from './channels.ts';
import { okResponse } from './errors.ts';
import {
  closePollPayload,
  createPollPayload,
  forwardMessagePayload,
  removeVoteOnPollPayload,
  togglePinMessagePayload,
  toggleReactionPayload,
  toggleStarredMessagePayload,
  voteOnPollPayload,
} from './message-actions.ts';
import {
  deleteMessagePayload,
  editMessagePayload,
  message,
  postMessagePayload,
  starredMessage,
} from './messages.ts';
import {
  type ClientToServerEvents,
  refreshEvent,
  type ServerToClientEvents,
  userOnlineStatusEvent,
  userOnlineStatusUpdates,
} from './socket.ts';
import { visitChannelPayload, visitGroupPayload, visitMemberPayload } from './visits.ts';

export interface ClientEventSchema {
  /** What the event is for, in a sentence. */
  about: string;
  payload: z.ZodType;
  /** The acknowledgement on success; a failure acknowledges `{ error: { message } }`. */
  ack: z.ZodType;
}
export interface ServerEventSchema {
  about: string;
  payload: z.ZodType;
}

export const clientEvents = {
  joinChannel: {
    about: 'Join a channel’s room to receive its messages.',
    payload: joinChannelPayload,
    ack: okResponse,
  },
  postMessage: {
    about: 'Send a message; a replay with the same genId returns the stored one (exactly once).',
    payload: postMessagePayload,
    ack: message,
  },
  editMessage: { about: 'Edit one of your messages.', payload: editMessagePayload, ack: message },
  deleteMessage: { about: 'Delete a message you may delete.', payload: deleteMessagePayload, ack: message },
  resetUnreadCount: { about: 'Mark a channel read.', payload: resetUnreadCountPayload, ack: okResponse },
  togglePinMessage: { about: 'Pin or unpin a message.', payload: togglePinMessagePayload, ack: message },
  toggleReaction: { about: 'Add or remove your reaction.', payload: toggleReactionPayload, ack: message },
  toggleStarredMessage: {
    about: 'Star or unstar a message for yourself.',
    payload: toggleStarredMessagePayload,
    ack: starredMessage,
  },
  createPoll: { about: 'Post a poll.', payload: createPollPayload, ack: message },
  closePoll: { about: 'Close a poll you created.', payload: closePollPayload, ack: message },
  voteOnPoll: { about: 'Vote on a poll.', payload: voteOnPollPayload, ack: message },
  removeVoteOnPoll: { about: 'Take your vote back.', payload: removeVoteOnPollPayload, ack: message },
  forwardMessage: {
    about: 'Forward a message to other channels.',
    payload: forwardMessagePayload,
    ack: z.array(message),
  },
  memberAction: {
    about: 'A channel manager answers a join request.',
    payload: memberActionPayload,
    ack: channelRequest,
  },
  visitMember: {
    about: 'Count a visit to a member’s profile.',
    payload: visitMemberPayload,
    ack: okResponse,
  },
  visitChannel: { about: 'Count a visit to a channel.', payload: visitChannelPayload, ack: okResponse },
  visitGroup: { about: 'Count a visit to a group.', payload: visitGroupPayload, ack: okResponse },
} as const satisfies Record<keyof ClientToServerEvents, ClientEventSchema>;

export const serverEvents = {
  newMessage: { about: 'A message was posted in a channel you are in.', payload: message },
  newEditMessage: {
    about: 'A message changed: edit, reaction, pin, vote, poll closed.',
    payload: message,
  },
  newEditPinnedMessage: {
    about: 'Sent after newEditMessage when a message is pinned or unpinned: pinned panels refresh.',
    payload: message,
  },
  newDeleteMessage: { about: 'A message was deleted.', payload: message },
  messageStarred: {
    about: "To the starrer's own sessions only: a star made or undone on any of their devices.",
    payload: starredMessage,
  },
  refresh: { about: 'Reload the named list (see value).', payload: refreshEvent },
  userOnlineStatusUpdate: { about: 'A member came online or went offline.', payload: userOnlineStatusEvent },
  userOnlineStatusUpdates: {
    about: 'Several members came online or went offline at once (a restart, a network back): one packet.',
    payload: userOnlineStatusUpdates,
  },
  memberAction: { about: 'A join request was made or answered.', payload: memberActionEvent },
  serverBuild: {
    about: 'On every connection: the client build the server serves; a tab on another build offers a reload.',
    payload: serverBuildEvent,
  },
} as const satisfies Record<keyof ServerToClientEvents, ServerEventSchema>;
