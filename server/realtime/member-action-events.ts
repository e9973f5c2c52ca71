// memberAction from a client (spec §7): a channel manager answers a join request over the socket. Same
// rule and effects as PUT channels/{channelId}/requests/{requestId}; the acknowledgement carries the request.
import { memberActionPayload } from '../../schemas/protocol/index.ts';
import type { ChannelServiceContext } from '../channels/context.ts';
import { decideChannelRequest } from '../channels/requests.ts';
import { acknowledged, type SocketHandlers } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';

export function memberActionEventHandlers(
  deps: HandlerDeps & Pick<ChannelServiceContext, 'realtime'>,
): SocketHandlers {
  return {
    memberAction: acknowledged(deps.log, 'memberAction', memberActionPayload, (socket, p) =>
      decideChannelRequest(deps, socket.data.userId, p.institutionId, p.channelId, p.requestId, p.status),
    ),
  };
}
