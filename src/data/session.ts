// The signed-in person: the sign-in code, signing in and out, and their profile (spec §4 Session).
// Actions reject with ApiError carrying the server's message.

import type { SigninResponse, User } from '../../schemas/protocol/index.ts';
import { openFirstScreens } from '../first-screen/store.ts';
import { clearLocalSession, requireClient, requireConnection } from './client.ts';
import { dropPushSubscription } from './push.ts';
import { markSignedIn } from './session-marker.ts';
import { useStoreRead } from './store-reads.ts';
import { refreshInstitutions } from './workspaces.ts';

export function useSession(): { token: string; user: User } | null | undefined {
  return useStoreRead('session', {});
}

export async function requestCode(email: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('signinCode', { query: { email } });
}

export async function signIn(email: string, code: string): Promise<void> {
  const { http } = await requireConnection();
  await adoptSession(await http.call('signin', { body: { email, code } }));
}

/** Keeps a new session (from any sign-in: e-mail code, identity provider) and opens the app with it. */
export async function adoptSession(res: SigninResponse): Promise<void> {
  const { db, worker } = await requireClient();
  const previous = await db.session.findOne('current').exec();
  await db.session.upsert({
    id: 'current',
    token: res.accessToken,
    user: res.user,
    selectedInstitutionId: previous?.selectedInstitutionId ?? null,
  });
  markSignedIn(true);
  openFirstScreens();
  await worker.sessionChanged(res.accessToken);
  await refreshInstitutions();
}

/** Ends the server session, disconnects the socket and clears the stores (spec §4 Session). */
export async function signOut(): Promise<void> {
  const { http, db, worker } = await requireClient();
  // Before the logout call: deleting the subscription needs the session.
  await dropPushSubscription(http);
  try {
    await http.call('logout');
  } catch {
    // Signing out must work offline; the token is dropped locally either way.
  }
  await clearLocalSession(db);
  await worker.sessionChanged(null);
  // The provider's own session too (Firebase keeps one); never holds up or fails the logout.
  void import('./identity.ts').then((m) => m.providerSignOut()).catch(() => undefined);
}

/**
 * The signed-in person as the server has them now (GET /api/users): a name or picture changed on another
 * device reaches this one's stored copy. Quiet when offline or signed out meanwhile.
 */
export async function refreshSignedInUser(): Promise<void> {
  const { http, db } = await requireClient();
  const before = await db.session.findOne('current').exec();
  if (!before) return;
  const user = await http.call('me').catch(() => null);
  const session = await db.session.findOne('current').exec();
  // Only into the session it was asked for: a sign-out or another sign-in meanwhile keeps its own.
  if (!user || !session || session.token !== before.token || session.user.id !== user.id) return;
  if (session.user.name !== user.name || session.user.profileImage !== user.profileImage)
    await session.incrementalPatch({ user: { ...session.user, ...user } });
}

export async function updateProfile(patch: { name?: string; profileImage?: string | null }): Promise<void> {
  const { http, db } = await requireClient();
  const user = await http.call('updateMe', { body: patch });
  const session = await db.session.findOne('current').exec();
  if (session) await session.incrementalPatch({ user: { ...session.user, ...user } });
}
