// The auth pages' frame: a calm centred card under the wordmark. Its own file, so the standalone
// sign-in page (src/sign-in-main.tsx) draws it without the router and the store.
import type { ReactNode } from 'react';
import { Wordmark } from '../components/brand/logo.tsx';

export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-full flex-col bg-app">
      <header className="flex h-14 items-center px-5">
        <Wordmark className="text-[15px]" />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-[8vh] pb-16">
        <div className="w-full max-w-[380px]">{children}</div>
      </main>
      <footer className="px-6 pb-6 text-center text-xs text-faint">
        Lantern keeps your messages and drafts on this device until they are delivered.
      </footer>
    </div>
  );
}
