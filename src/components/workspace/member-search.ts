// Member search used by the directory and the new-message picker: name or e-mail, case-insensitive.
import type { MemberDoc } from '../../../schemas/collections.ts';

export function matchMembers(members: readonly MemberDoc[], query: string): MemberDoc[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...members];
  return members.filter((m) => m.name.toLowerCase().includes(q) || m.email.toLowerCase().includes(q));
}

export const ROLE_LABEL: Record<string, string> = {
  primary_owner: 'Primary owner',
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  guest: 'Guest',
};
