// Auth layout: a calm centred card for signed-out pages; signed-in visitors are sent on (spec §2).
import { Outlet } from 'react-router';
import { AuthFrame } from './auth-frame.tsx';
import { RequireSignedOut } from './guards.tsx';

export { AuthFrame };

export function AuthLayout() {
  return (
    <RequireSignedOut>
      <AuthFrame>
        <Outlet />
      </AuthFrame>
    </RequireSignedOut>
  );
}
