// Shown on every screen once the server no longer answers this build's protocol (a deploy happened while the
// app was open): nothing more can be sent or fetched until the person reloads into the new build. Styled
// like the offline banner, since it says the same kind of thing: why Lantern is not talking to the server.
import { RefreshCw } from 'lucide-react';
import { useOutdated } from '../data/app-version.ts';
import { Button } from './ui/button.tsx';

export function UpdateBanner() {
  if (!useOutdated()) return null;
  return (
    <div
      role="alert"
      className="flex shrink-0 items-center gap-2 border-b border-amber-300/60 bg-accent-soft px-4 py-1.5 text-[13px] text-accent-fg"
    >
      <RefreshCw className="size-4 shrink-0" aria-hidden />
      <span className="min-w-0 flex-1 truncate">
        <strong className="font-semibold">A new version of Lantern is available.</strong> Reload to keep
        working.
      </span>
      <Button size="xs" variant="outline" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}
