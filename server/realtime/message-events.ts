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
import { acknowledged, type SocketHandlers } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';

export function messageEventHandlers(deps: HandlerDeps): SocketHandlers {
  const { log } = deps;
  return {
    postMessage: acknowledged(
      log,
      'postMessage',
      postMessagePayload,
      async (socket, p) => (await postMessage(deps, socket.data.userId, p)).message,
    ),
    editMessage: acknowledged(log, 'editMessage', editMessagePayload, (socket, p) =>
      editMessage(deps, socket.data.userId, p),
    ),
    deleteMessage: acknowledged(log, 'deleteMessage', deleteMessagePayload, (socket, p) =>
      deleteMessage(deps, socket.data.userId, p),
    ),
  };
}
