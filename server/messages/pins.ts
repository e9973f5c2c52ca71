// Pinning: needs canPinMessage (both people of a direct message may pin). Stated, not flipped, when the
// payload says `pinned`; the change is broadcast as newEditMessage and newEditPinnedMessage.
import type { z } from 'zod';
import type { Message, togglePinMessagePayload } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { MessagesContext } from './context.ts';
import { applyMessageChange } from './ops.ts';
import { requirePinPermission } from './permissions.ts';
import { toWireMessage } from './wire.ts';

export type TogglePinInput = z.infer<typeof togglePinMessagePayload>;

export async function togglePinMessage(
  ctx: MessagesContext,
  userId: string,
  input: TogglePinInput,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const { row, changed } = await applyMessageChange(
    db,
    {
      opId: input.opId,
      memberId: access.member.id,
      kind: 'pin',
      channelId: input.channelId,
      messageId: input.messageId,
    },
    {
      authorize: () => requirePinPermission(db, access),
      decide: (current) => {
        const was = current.pinnedAt !== null;
        const want = input.pinned ?? !was;
        return want === was ? null : { patch: { pinnedAt: want ? new Date() : null } };
      },
    },
  );
  const message = toWireMessage(row);
  if (changed) {
    ctx.broadcast.toChannel(input.channelId, 'newEditMessage', message);
    ctx.broadcast.toChannel(input.channelId, 'newEditPinnedMessage', message);
  }
  return message;
}
