// Message action events: pin, react, star, polls and forward. Each is idempotent on its opId and answers
// with the message as stored (forward: the new messages); the services broadcast after commit.
import {
  closePollPayload,
  createPollPayload,
  forwardMessagePayload,
  removeVoteOnPollPayload,
  togglePinMessagePayload,
  toggleReactionPayload,
  toggleStarredMessagePayload,
  voteOnPollPayload,
} from '../../schemas/protocol/index.ts';
import { forwardMessage } from '../messages/forward.ts';
import { togglePinMessage } from '../messages/pins.ts';
import { closePoll, createPoll, removeVoteOnPoll, voteOnPoll } from '../messages/polls.ts';
import { toggleReaction } from '../messages/reactions.ts';
import { toggleStarredMessage } from '../messages/stars.ts';
import { acknowledged, type SocketHandlers } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';

export function messageActionEventHandlers(deps: HandlerDeps): SocketHandlers {
  const { log } = deps;
  return {
    togglePinMessage: acknowledged(log, 'togglePinMessage', togglePinMessagePayload, (socket, p) =>
      togglePinMessage(deps, socket.data.userId, p),
    ),
    toggleReaction: acknowledged(log, 'toggleReaction', toggleReactionPayload, (socket, p) =>
      toggleReaction(deps, socket.data.userId, p),
    ),
    toggleStarredMessage: acknowledged(
      log,
      'toggleStarredMessage',
      toggleStarredMessagePayload,
      (socket, p) => toggleStarredMessage(deps, socket.data.userId, p),
    ),
    createPoll: acknowledged(log, 'createPoll', createPollPayload, (socket, p) =>
      createPoll(deps, socket.data.userId, p),
    ),
    closePoll: acknowledged(log, 'closePoll', closePollPayload, (socket, p) =>
      closePoll(deps, socket.data.userId, p),
    ),
    voteOnPoll: acknowledged(log, 'voteOnPoll', voteOnPollPayload, (socket, p) =>
      voteOnPoll(deps, socket.data.userId, p),
    ),
    removeVoteOnPoll: acknowledged(log, 'removeVoteOnPoll', removeVoteOnPollPayload, (socket, p) =>
      removeVoteOnPoll(deps, socket.data.userId, p),
    ),
    forwardMessage: acknowledged(log, 'forwardMessage', forwardMessagePayload, (socket, p) =>
      forwardMessage(deps, socket.data.userId, p),
    ),
  };
}
