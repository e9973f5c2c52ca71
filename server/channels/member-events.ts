// Who is in a channel changed (someone joined, left, was added or removed, or their channel roles moved):
// everyone in it hears so, and a client showing that channel reloads its member list (the header's
// count, the Members tab). Sent after the change is stored.
import type { Broadcaster } from '../context.ts';

export function announceChannelMembers(ctx: { broadcast: Broadcaster }, channelId: string): void {
  ctx.broadcast.toChannel(channelId, 'refresh', { value: 'channelMembers', channelId });
}
