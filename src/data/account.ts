// The person's own account: what deleting it would do, deleting it (signed in, or signed out with a
// deletion code mailed to the address), and handing a workspace over, which a primary owner does first.
import type {
  AccountDeletedResponse,
  AccountDeletionPreview,
  DeletedMessagesChoice,
} from '../../schemas/protocol/index.ts';
import { clearLocalSession, requireClient, requireConnection } from './client.ts';
import { refreshMembers } from './members.ts';
import { type RemoteState, useRemoteQuery } from './remote-query.ts';
import { refreshInstitutions } from './workspaces.ts';

/** What deleting the signed-in person's account would do; idle when nobody is signed in. */
export function useDeletionPreview(signedIn: boolean): RemoteState<AccountDeletionPreview> {
  return useRemoteQuery(signedIn ? 'account-deletion' : null, async () => {
    const { http } = await requireConnection();
    return http.call('accountDeletionPreview');
  });
}

/** After the server deleted the account: this device forgets it too, as on sign-out. */
async function forgetLocally(): Promise<void> {
  const { db, worker } = await requireClient();
  await clearLocalSession(db);
  await worker.sessionChanged(null);
}

export async function deleteMyAccount(messages: DeletedMessagesChoice): Promise<AccountDeletedResponse> {
  const { http } = await requireConnection();
  const res = await http.call('deleteAccount', { body: { messages } });
  await forgetLocally();
  return res;
}

export async function requestDeletionCode(email: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('accountDeletionCode', { body: { email } });
}

export async function deleteAccountWithCode(
  email: string,
  code: string,
  messages: DeletedMessagesChoice,
): Promise<AccountDeletedResponse> {
  const { http } = await requireConnection();
  return http.call('deleteAccountByCode', { body: { email, code, messages } });
}

/** Makes an owner or admin the workspace's primary owner; the caller becomes an owner. */
export async function handOverWorkspace(institutionId: string, memberId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('handOverWorkspace', { params: { id: institutionId }, body: { memberId } });
  await Promise.all([refreshMembers(institutionId), refreshInstitutions()]);
}
