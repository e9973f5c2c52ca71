// /lti/launch?ltik=… (spec §2): a course on a learning platform opens Lantern. Without ltik it goes to /;
// with one, any session of this browser is ended, the ltik is exchanged for the launched person's session,
// and the course's channel opens. An instructor's deep-linking request picks the channel to place in the
// course instead. Inside a course iframe whose browser keeps third-party storage from Lantern, the page
// offers the same launch in a new window (the ltik is not spent until the store can hold the session).
import { ExternalLink, GraduationCap, Hash, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { LtiLaunchResponse } from '../../schemas/protocol/index.ts';
import { AuthFrame } from '../app/auth-layout.tsx';
import { errorMessage } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { Spinner } from '../components/ui/states.tsx';
import { launchSession, placeableChannels, placeChannel, storeAvailable } from '../data/lti.ts';
import { readPlatformStorage } from '../data/lti-storage.ts';

type Phase =
  | { kind: 'opening' }
  | { kind: 'blocked'; newWindow: string }
  | { kind: 'failed'; message: string }
  | { kind: 'placing'; launch: LtiLaunchResponse & { deepLinkToken: string } };

function Card({ children }: { children: React.ReactNode }) {
  return <div className="rounded-xl border border-line bg-surface p-6 shadow-sm">{children}</div>;
}

export function LtiLaunchScreen() {
  usePageTitle('Opening your course');
  const [params] = useSearchParams();
  const ltik = params.get('ltik');
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });

  useEffect(() => {
    if (!ltik) return;
    let live = true;
    void (async () => {
      // The login's state: carried from the frame in the fragment, or read from the platform's storage.
      const carried = new URLSearchParams(window.location.hash.slice(1)).get('lti_state');
      const target = params.get('lti_storage_target');
      const origin = params.get('lti_storage_origin');
      const key = params.get('lti_storage_key');
      const state =
        carried ?? (target && origin && key ? await readPlatformStorage({ target, origin, key }) : null);
      if (!(await storeAvailable())) {
        // The same launch top-level, with the state this frame read (the fragment never reaches a server log).
        const here = new URL(window.location.href);
        here.hash = state ? `lti_state=${encodeURIComponent(state)}` : '';
        if (live) setPhase({ kind: 'blocked', newWindow: here.toString() });
        return;
      }
      try {
        const launch = await launchSession(ltik, state);
        if (!live) return;
        if (launch.deepLinkToken) {
          setPhase({ kind: 'placing', launch: { ...launch, deepLinkToken: launch.deepLinkToken } });
          return;
        }
        const to = launch.channelId
          ? `/client/${launch.institutionId}/channel/${launch.channelId}`
          : `/client/${launch.institutionId}`;
        await navigate(to, { replace: true });
      } catch (err) {
        if (live) setPhase({ kind: 'failed', message: errorMessage(err) });
      }
    })();
    return () => {
      live = false;
    };
  }, [ltik, navigate, params]);

  if (!ltik) return <Navigate to="/" replace />;
  return (
    <AuthFrame>
      {phase.kind === 'opening' ? (
        <Card>
          <div className="flex flex-col items-center gap-2 text-center">
            <Spinner className="p-2" label="Opening your course" />
            <p className="text-[13px] text-muted">Opening your course…</p>
          </div>
        </Card>
      ) : phase.kind === 'blocked' ? (
        <Card>
          <div className="flex flex-col gap-3">
            <GraduationCap className="size-6 text-muted" aria-hidden />
            <h1 className="text-lg font-semibold tracking-tight">Open Lantern in a new window</h1>
            <p className="text-[13px] text-muted">
              Your browser keeps Lantern from storing its data inside this course page. It works in a window
              of its own.
            </p>
            <Button asChild className="w-full">
              <a href={phase.newWindow} target="_blank" rel="noopener">
                <ExternalLink aria-hidden />
                Open in a new window
              </a>
            </Button>
          </div>
        </Card>
      ) : phase.kind === 'failed' ? (
        <Card>
          <div className="flex flex-col gap-3" role="alert">
            <TriangleAlert className="size-6 text-danger" aria-hidden />
            <h1 className="text-lg font-semibold tracking-tight">This course could not be opened</h1>
            <p className="text-[13px] text-muted">{phase.message}</p>
          </div>
        </Card>
      ) : (
        <ChannelPicker launch={phase.launch} />
      )}
    </AuthFrame>
  );
}

function ChannelPicker({ launch }: { launch: LtiLaunchResponse & { deepLinkToken: string } }) {
  const [channels, setChannels] = useState<{ id: string; name: string }[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void placeableChannels(launch.institutionId).then(
      (list) => {
        setChannels(list);
        setChosen((c) => c ?? list[0]?.id ?? null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [launch.institutionId]);

  async function place() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      await placeChannel(launch.deepLinkToken, chosen);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <Card>
      <div className="flex flex-col gap-4">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Add a channel to your course</h1>
          <p className="mt-1 text-[13px] text-muted">
            Students who open it from the course land in the channel you choose.
          </p>
        </div>
        {channels === null && !error ? (
          <Spinner className="p-2" />
        ) : (
          <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto" aria-label="Channels">
            {(channels ?? []).map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  aria-pressed={chosen === c.id}
                  onClick={() => setChosen(c.id)}
                  className={cn(
                    'flex w-full items-center gap-2 rounded-md border px-3 py-2 text-left text-sm',
                    chosen === c.id
                      ? 'border-accent bg-accent-soft font-medium text-accent-fg'
                      : 'border-line hover:bg-hover',
                  )}
                >
                  <Hash className="size-4 text-muted" aria-hidden />
                  {c.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        {error ? (
          <p className="text-[13px] text-danger" role="alert">
            {error}
          </p>
        ) : null}
        <Button onClick={place} loading={busy} disabled={!chosen} className="w-full">
          Add to course
        </Button>
      </div>
    </Card>
  );
}
