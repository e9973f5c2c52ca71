// Explicit logout (spec §4 Session): go to /signin (no redirect back), end the session, say so.
// The flag tells the route guard that the missing session is a logout, not an expired one that
// should come back to the current page after signing in again.

import { signOut } from '../data/session.ts';
import { toast } from './toast.ts';

let loggingOut = false;

export function isLoggingOut(): boolean {
  return loggingOut;
}

export async function logout(navigate: (to: string, opts?: { replace?: boolean }) => unknown): Promise<void> {
  loggingOut = true;
  try {
    await signOut();
  } catch (error) {
    // Spec §7: the logout call's errors are silent; the local session is cleared regardless.
    console.warn('Logout call failed', error);
  }
  await navigate('/signin', { replace: true });
  toast.info('You have been logged out');
  // The guard has run by now; later session losses are expirations again.
  setTimeout(() => {
    loggingOut = false;
  }, 0);
}
