// The first five minutes (issue 15 item 3, decision 0045): the workspace's getting-started checklist,
// its shareable invite link, joining through one, and whether a new account has been asked its name.
// Server-only state held for the tab (remote-query.ts); screens never fetch.

import type {
  InviteLink,
  InviteLinkPreview,
  User,
  WorkspaceChecklist,
} from '../../schemas/protocol/index.ts';
import { requireConnection } from './client.ts';
import { invalidateRemote, type RemoteState, setRemote, useRemoteQuery } from './remote-query.ts';
import { useStoreRead } from './store-reads.ts';
import { refreshInstitutions } from './workspaces.ts';

const keys = {
  checklist: (institutionId: string) => `onboarding:checklist:${institutionId}`,
  inviteLink: (institutionId: string) => `onboarding:invite-link:${institutionId}`,
  preview: (token: string) => `onboarding:preview:${token}`,
};

export function useChecklist(institutionId: string): RemoteState<WorkspaceChecklist> {
  // '' (not an admin): nothing to ask; a request for workspace "" was a 400 on every member's page.
  return useRemoteQuery(institutionId ? keys.checklist(institutionId) : null, async () => {
    const { http } = await requireConnection();
    return http.call('workspaceChecklist', { params: { id: institutionId } });
  });
}

/**
 * Whether this device holds a message of the caller's in the workspace (sent or still queued). The
 * checklist's "Say hello" ticks from it at once: the server's answer may predate the send, which the
 * worker can deliver only after the page has asked (a reload right after sending, or offline). Asked
 * only while the server's answer says not yet.
 */
export function useSaidHello(institutionId: string, memberId: string, ask: boolean): boolean {
  return useStoreRead('saidHello', { institutionId, memberId, ask }) ?? false;
}

/** Puts the checklist away in this workspace, on every device (PUT .../members). */
export async function dismissChecklist(institutionId: string): Promise<void> {
  const { http } = await requireConnection();
  const res = await http.call('updateOwnMembership', {
    params: { id: institutionId },
    body: { checklistDismissed: true },
  });
  setRemote<WorkspaceChecklist>(keys.checklist(institutionId), () => res.checklist);
}

/** After inviting, creating a channel or sending: the checklist reads the workspace again. */
export const refreshChecklist = (institutionId: string) => invalidateRemote(keys.checklist(institutionId));

/** The workspace's live invite link (admins only; a null key when the caller may not see it). */
export function useInviteLink(institutionId: string, canManage: boolean): RemoteState<InviteLink | null> {
  return useRemoteQuery(canManage ? keys.inviteLink(institutionId) : null, async () => {
    const { http } = await requireConnection();
    return (await http.call('inviteLink', { params: { id: institutionId } })).link;
  });
}

/** A new link (the old one stops working), lasting this many days. */
export async function createInviteLink(
  institutionId: string,
  expiresInDays: 1 | 7 | 30,
): Promise<InviteLink> {
  const { http } = await requireConnection();
  const { link } = await http.call('createInviteLink', {
    params: { id: institutionId },
    body: { expiresInDays },
  });
  if (!link) throw new Error('The server made no link');
  setRemote<InviteLink | null>(keys.inviteLink(institutionId), () => link);
  void refreshChecklist(institutionId);
  return link;
}

export async function revokeInviteLink(institutionId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('revokeInviteLink', { params: { id: institutionId } });
  setRemote<InviteLink | null>(keys.inviteLink(institutionId), () => null);
}

/** What opening an invite link would join; its error is the server's sentence (404: no longer valid). */
export function useInviteLinkPreview(token: string | null): RemoteState<InviteLinkPreview> {
  return useRemoteQuery(token ? keys.preview(token) : null, async () => {
    const { http } = await requireConnection();
    return http.call('inviteLinkPreview', { params: { token: token ?? '' } });
  });
}

/** Joins through the link; resolves with the workspace id once the store knows the workspace. */
export async function joinByInviteLink(token: string): Promise<string> {
  const { http } = await requireConnection();
  const { institution } = await http.call('joinByInviteLink', { params: { token } });
  await refreshInstitutions();
  return institution.id;
}

// ───────────── the name-and-picture step of a new account ─────────────

const askedKey = (userId: string) => `lantern:profile-step-done:${userId}`;

/**
 * A new account is named after its address's local part until its person picks a name: that, and no
 * answer to the step on this device yet, is "no name yet". Saving or skipping is remembered here.
 */
export function needsProfileStep(user: Pick<User, 'id' | 'email' | 'name'>): boolean {
  const localPart = user.email.split('@')[0] ?? '';
  if (user.name !== localPart) return false;
  try {
    return localStorage.getItem(askedKey(user.id)) === null;
  } catch {
    return false;
  }
}

export function markProfileStepDone(userId: string): void {
  try {
    localStorage.setItem(askedKey(userId), new Date().toISOString());
  } catch {
    // Private mode without storage: the step may show again, which is harmless.
  }
}
