// Words for the five channel permissions (spec §6) in role editors.
import type { ChannelPermissionFlag } from '../../../schemas/permissions.ts';

export const PERMISSION_TEXT: Record<ChannelPermissionFlag, { label: string; help: string }> = {
  canPost: { label: 'Post messages', help: 'Write in the channel.' },
  canPinMessage: { label: 'Pin messages', help: 'Keep important messages at hand.' },
  canTag: { label: 'Mention people', help: 'Use @name, @here and @everyone.' },
  canAddMembers: { label: 'Add members', help: 'Bring other people into the channel.' },
  canDeleteMessage: { label: 'Delete messages', help: 'Remove messages written by others.' },
};
