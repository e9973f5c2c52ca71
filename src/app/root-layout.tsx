// Root shell (spec §2): toast area, the isDesktop setting kept in step with the
// window width, the service worker's messages turned into navigation, the served build watched for a
// new version and the server's route rules followed.
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { UpdateBanner } from '../components/update-banner.tsx';
import { useAppVersion } from '../data/app-version.ts';
import { updateSettings, useSettings, useStoredSettings } from '../data/settings.ts';
import { useSelectedInstitutionId } from '../data/workspaces.ts';
import { dismissFirstScreen } from '../first-screen/capture.ts';
import { CHANNEL_PATH } from '../first-screen/frame.ts';
import { afterFirstRows } from '../first-screen/rows-painted.ts';
import { IosInstallDialog, useInstallPrompt } from './install.tsx';
import { isDesktopWidth } from './media.ts';
import {
  playNotificationSound,
  preloadNotificationSound,
  setNotificationSoundEnabled,
} from './notification-sound.ts';
import { routeRuleAction, useRouteRules } from './route-rules.ts';
import { checkForServiceWorkerUpdate, registerServiceWorker } from './service-worker.ts';
import { toast } from './toast.ts';
import { Toaster } from './toaster.tsx';
import { watchServerVersion } from './version-watch.ts';

export function RootLayout() {
  // useNavigate's function changes with the address; the worker's handlers are registered once.
  const navigateNow = useNavigate();
  const navigateRef = useRef(navigateNow);
  navigateRef.current = navigateNow;
  const selected = useSelectedInstitutionId();
  const settings = useSettings();
  // Read when a notification click arrives, so registration itself happens once.
  useInstallPrompt();
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  // The boot script's picture is of a channel: anywhere else (sign-in, another screen) it goes at once.
  const { pathname } = useLocation();
  useEffect(() => {
    if (!CHANNEL_PATH.test(pathname)) dismissFirstScreen();
  }, [pathname]);
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;

  // Spec §9: the sound and a silent file are preloaded at start; the switch is read when a push plays.
  useEffect(() => preloadNotificationSound(), []);
  useEffect(
    () => setNotificationSoundEnabled(settings.playNotificationSound),
    [settings.playNotificationSound],
  );

  useEffect(() => {
    registerServiceWorker({
      openChannel: (clientId, channelId) => {
        // Spec §2: a notification without a client id opens the channel in the current workspace.
        const workspace = clientId ?? selectedRef.current;
        if (workspace) void navigateRef.current(`/client/${workspace}/channel/${channelId}`);
      },
      foregroundPush: (push) => {
        // Spec §2, §4: a push for the open channel says nothing; another channel gets a toast and the sound.
        if (!push.channelId || openChannelId(pathnameRef.current) === push.channelId) return;
        const workspace = push.clientId ?? selectedRef.current;
        const channelId = push.channelId;
        toast(push.title, {
          description: push.body || undefined,
          ...(workspace
            ? {
                action: {
                  label: 'View in channel',
                  onClick: () => void navigateRef.current(`/client/${workspace}/channel/${channelId}`),
                },
              }
            : {}),
        });
        void playNotificationSound();
      },
    });
    navigator.serviceWorker?.controller?.postMessage({ type: 'closeAllNotifications' });
  }, []);

  // Spec §4: isDesktop is set from the window width on load and on every resize. Compared with the stored
  // row once it has loaded (the defaults before it would write on every load), and written after the first
  // rows: the write opens this tab's own store, which the first screen does without (decision 0065).
  const stored = useStoredSettings();
  const loaded = stored !== undefined;
  const storedDesktop = stored ? stored.isDesktop : settings.isDesktop;
  useEffect(() => {
    if (!loaded) return;
    const sync = () => {
      const desktop = isDesktopWidth();
      if (storedDesktop !== desktop)
        afterFirstRows(() => void updateSettings({ isDesktop: desktop }).catch(() => {}));
    };
    sync();
    window.addEventListener('resize', sync);
    return () => window.removeEventListener('resize', sync);
  }, [loaded, storedDesktop]);

  // Decision 0043: the served build and its route rules are polled; a new build's service worker is
  // fetched at once, so it is waiting by the time the person presses Reload.
  useEffect(() => watchServerVersion(), []);
  const version = useAppVersion();
  useEffect(() => {
    if (version !== 'current') checkForServiceWorkerUpdate();
  }, [version]);
  const rules = useRouteRules();
  useEffect(() => {
    const action = routeRuleAction(pathname, rules, window.location.origin);
    // Spec §2: a server-provided redirect is followed; one to another site by a full page load.
    if (action?.kind === 'load') window.location.assign(action.url);
    else if (action) void navigateRef.current(action.to, { replace: true });
  }, [pathname, rules]);

  const outdated = version !== 'current';
  return (
    <>
      {/* Only an outdated build changes the page's frame: the banner stays above whatever screen is open. */}
      {outdated ? (
        <div className="flex h-full flex-col">
          <UpdateBanner />
          <div className="min-h-0 flex-1">
            <Outlet />
          </div>
        </div>
      ) : (
        <Outlet />
      )}
      <IosInstallDialog />
      <Toaster />
    </>
  );
}

/** The channel id in a /client/{id}/channel/{id} path, if that is what is open. */
export function openChannelId(pathname: string): string | null {
  return /^\/client\/[^/]+\/channel\/([^/?#]+)/.exec(pathname)?.[1] ?? null;
}
