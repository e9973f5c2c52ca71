// Route access (spec §6): client/default layouts need a session, auth pages are for signed-out users.
import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { Spinner } from '../components/ui/states.tsx';
import { useSession } from '../data/session.ts';
import { safeRedirect } from './safe-redirect.ts';
import { isLoggingOut } from './session-exit.ts';

export { safeRedirect };

/** Signed-out → /signin?redirect={original path}; while the store opens, a quiet spinner. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session === undefined) return <Spinner className="h-full" />;
  if (session === null) {
    if (isLoggingOut()) return <Navigate to="/signin" replace />;
    const original = location.pathname + location.search + location.hash;
    return <Navigate to={`/signin?redirect=${encodeURIComponent(original)}`} replace />;
  }
  return children;
}

/** Signed-in → the redirect query value, or '/'. */
export function RequireSignedOut({ children }: { children: ReactNode }) {
  const session = useSession();
  const [params] = useSearchParams();
  if (session === undefined) return <Spinner className="h-full" />;
  if (session) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return children;
}
