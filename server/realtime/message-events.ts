// Message events: post (idempotent on genId), edit and delete. Each acknowledges with the stored message
// only after its transaction committed; the services broadcast to the channel's room.
import {
  deleteMessagePayload,
  editMessagePayload,
  postMessagePayload,
} from '../../schemas/protocol/index.ts';
import { deleteMessage } from '../messages/delete.ts';
import { editMessage } from '../messages/edit.ts';
import { postMessage } from '../messages/post.ts';
import { acknowledged } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';
import type { LanternSocket } from './types.ts';

export function registerMessageEvents(socket: LanternSocket, deps: HandlerDeps): void {
  const { log } = deps;
  const userId = socket.data.userId;

  socket.on(
    'postMessage',
    acknowledged(
      log,
      'postMessage',
      postMessagePayload,
      async (p) => (await postMessage(deps, userId, p)).message,
    ),
  );
  socket.on(
    'editMessage',
    acknowledged(log, 'editMessage', editMessagePayload, (p) => editMessage(deps, userId, p)),
  );
  socket.on(
    'deleteMessage',
    acknowledged(log, 'deleteMessage', deleteMessagePayload, (p) => deleteMessage(deps, userId, p)),
  );
}
