// Root shell (spec §2): toast area, tooltip timing, the isDesktop setting kept in step with the
// window width, and the service worker's messages turned into navigation.
import { useEffect, useRef } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { TooltipProvider } from '../components/ui/tooltip.tsx';
import { updateSettings } from '../data/actions.ts';
import { useSelectedInstitutionId, useSettings } from '../data/hooks.ts';
import { IosInstallDialog, useInstallPrompt } from './install.tsx';
import { isDesktopWidth } from './media.ts';
import { registerServiceWorker } from './service-worker.ts';
import { Toaster } from './toaster.tsx';

export function RootLayout() {
  const navigate = useNavigate();
  const selected = useSelectedInstitutionId();
  const settings = useSettings();
  // Read when a notification click arrives, so registration itself happens once.
  useInstallPrompt();
  const selectedRef = useRef(selected);
  selectedRef.current = selected;

  useEffect(() => {
    registerServiceWorker({
      openChannel: (clientId, channelId) => {
        // Spec §2: a notification without a client id opens the channel in the current workspace.
        const workspace = clientId ?? selectedRef.current;
        if (workspace) void navigate(`/client/${workspace}/channel/${channelId}`);
      },
    });
    navigator.serviceWorker?.controller?.postMessage({ type: 'closeAllNotifications' });
  }, [navigate]);

  // Spec §4: isDesktop is set from the window width on load and on every resize.
  useEffect(() => {
    const sync = () => {
      const desktop = isDesktopWidth();
      if (settings.isDesktop !== desktop) void updateSettings({ isDesktop: desktop }).catch(() => {});
    };
    sync();
    window.addEventListener('resize', sync);
    return () => window.removeEventListener('resize', sync);
  }, [settings.isDesktop]);

  return (
    <TooltipProvider>
      <Outlet />
      <IosInstallDialog />
      <Toaster />
    </TooltipProvider>
  );
}
