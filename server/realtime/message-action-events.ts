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
import { acknowledged } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';
import type { LanternSocket } from './types.ts';

export function registerMessageActionEvents(socket: LanternSocket, deps: HandlerDeps): void {
  const { log } = deps;
  const userId = socket.data.userId;
  socket.on(
    'togglePinMessage',
    acknowledged(log, 'togglePinMessage', togglePinMessagePayload, (p) => togglePinMessage(deps, userId, p)),
  );
  socket.on(
    'toggleReaction',
    acknowledged(log, 'toggleReaction', toggleReactionPayload, (p) => toggleReaction(deps, userId, p)),
  );
  socket.on(
    'toggleStarredMessage',
    acknowledged(log, 'toggleStarredMessage', toggleStarredMessagePayload, (p) =>
      toggleStarredMessage(deps, userId, p),
    ),
  );
  socket.on(
    'createPoll',
    acknowledged(log, 'createPoll', createPollPayload, (p) => createPoll(deps, userId, p)),
  );
  socket.on(
    'closePoll',
    acknowledged(log, 'closePoll', closePollPayload, (p) => closePoll(deps, userId, p)),
  );
  socket.on(
    'voteOnPoll',
    acknowledged(log, 'voteOnPoll', voteOnPollPayload, (p) => voteOnPoll(deps, userId, p)),
  );
  socket.on(
    'removeVoteOnPoll',
    acknowledged(log, 'removeVoteOnPoll', removeVoteOnPollPayload, (p) => removeVoteOnPoll(deps, userId, p)),
  );
  socket.on(
    'forwardMessage',
    acknowledged(log, 'forwardMessage', forwardMessagePayload, (p) => forwardMessage(deps, userId, p)),
  );
}
