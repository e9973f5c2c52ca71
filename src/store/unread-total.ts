// The app badge's number (src/app/app-badge.ts), counted by the worker's store read (worker/store-reads.ts).
import type { ChannelMemberDoc } from '../../schemas/collections.ts';

/** The unread messages of the person's own memberships (one member id per workspace), muted ones left out. */
export function unreadTotal(
  institutions: readonly { member: { id: string } }[],
  memberships: readonly Pick<ChannelMemberDoc, 'memberId' | 'unreadCount' | 'muted'>[],
): number {
  const mine = new Set(institutions.map((i) => i.member.id));
  let total = 0;
  for (const m of memberships) if (mine.has(m.memberId) && !m.muted) total += m.unreadCount;
  return total;
}
