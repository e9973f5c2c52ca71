// memberAction from a client (spec §7): a channel manager answers a join request over the socket. Same
// rule and effects as PUT channels/{channelId}/requests/{requestId}; the acknowledgement carries the request.
import { memberActionPayload } from '../../schemas/protocol/index.ts';
import type { ChannelServiceContext } from '../channels/context.ts';
import { decideChannelRequest } from '../channels/requests.ts';
import { acknowledged } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';
import type { LanternSocket } from './types.ts';

export function registerMemberActionEvents(
  socket: LanternSocket,
  deps: HandlerDeps & Pick<ChannelServiceContext, 'realtime'>,
): void {
  const userId = socket.data.userId;
  socket.on(
    'memberAction',
    acknowledged(deps.log, 'memberAction', memberActionPayload, (p) =>
      decideChannelRequest(deps, userId, p.institutionId, p.channelId, p.requestId, p.status),
    ),
  );
}
