// "Deleted user": the author of a message whose account was deleted (spec §2 /account-deletion). Their
// member row is gone, like someone who left, so the directory does not name them; the server keeps their
// member ids per workspace. Only a row whose author the directory does not know asks, so a channel of
// known people fetches nothing.
import { useMemo } from 'react';
import { requireConnection } from './client.ts';
import { useRemoteQuery } from './remote-query.ts';

export const DELETED_USER = 'Deleted user';
export const UNKNOWN_MEMBER = 'Unknown member';

/** The name an author shows: their own, "Deleted user" if they deleted their account, else "Unknown member". */
export function useAuthorName(
  institutionId: string,
  memberId: string,
  author: { name?: string; email?: string } | undefined,
): string {
  const known = author?.name || author?.email;
  const deleted = useRemoteQuery(known ? null : `deleted-members:${institutionId}`, async () => {
    const { http } = await requireConnection();
    return (await http.call('deletedMembers', { params: { id: institutionId } })).data;
  });
  const ids = useMemo(() => new Set(deleted.data ?? []), [deleted.data]);
  if (known) return known;
  return ids.has(memberId) ? DELETED_USER : UNKNOWN_MEMBER;
}
