// The standalone sign-in page's tree: rendered to HTML at build time (scripts/sign-in-page.ts) and
// hydrated by src/sign-in-main.tsx, so the form is on screen before any script has run.
import { StrictMode } from 'react';
import { AuthFrame } from './app/auth-frame.tsx';
import { Toaster } from './app/toaster.tsx';
import { SignInScreen } from './screens/sign-in.tsx';

export function SignInPage({ onSignedIn }: { onSignedIn?: () => void }) {
  return (
    <StrictMode>
      <AuthFrame>
        <SignInScreen onSignedIn={onSignedIn} />
      </AuthFrame>
      <Toaster />
    </StrictMode>
  );
}
