// Shown on every screen once this tab is not on the build the server serves (decision 0043): a deploy
// happened while the app was open ('newer'), or the server no longer answers this build's protocol or a
// newer build's worker took over ('outdated': nothing more is sent until the person reloads). Styled like
// the offline banner, since it says the same kind of thing: why Lantern is not talking to the server.
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { reloadToNewVersion } from '../app/service-worker.ts';
import { useAppVersion } from '../data/app-version.ts';
import { Button } from './ui/button.tsx';

export function UpdateBanner() {
  const state = useAppVersion();
  const [reloading, setReloading] = useState(false);
  if (state === 'current') return null;
  return (
    <div
      role="alert"
      className="flex shrink-0 items-center gap-2 border-b border-amber-300/60 bg-accent-soft px-4 py-1.5 text-[13px] text-accent-fg"
    >
      <RefreshCw className="size-4 shrink-0" aria-hidden />
      <span className="min-w-0 flex-1 leading-snug">
        <strong className="font-semibold">A new version of Lantern is available.</strong>{' '}
        {state === 'outdated' ? 'Reload to keep working.' : 'Reload to update.'}
      </span>
      <Button
        size="xs"
        variant="outline"
        disabled={reloading}
        onClick={() => {
          setReloading(true);
          void reloadToNewVersion();
        }}
      >
        Reload
      </Button>
    </div>
  );
}
