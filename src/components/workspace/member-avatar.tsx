// A workspace member's avatar with their presence dot, read for this member alone (src/app/presence.ts):
// a colleague coming online re-renders this dot and nothing around it.
import { useOnline } from '../../app/presence.ts';
import { isAgent } from '../messages/agent-badge.tsx';
import { Avatar, type AvatarProps } from '../ui/avatar.tsx';

export interface MemberAvatarProps extends Omit<AvatarProps, 'online'> {
  /** The member shown; none while the member list has not loaded (no dot then). */
  member: { id: string; kind?: string } | null | undefined;
}

export function MemberAvatar({ member, ...avatar }: MemberAvatarProps) {
  // Agents have no presence: they answer whenever they are asked.
  const online = useOnline(member && !isAgent(member) ? member.id : null);
  return <Avatar {...avatar} online={online} />;
}
